package ai.convo.contract.snapshot;

import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A task stored the content of a pending snapshot: the snapshot exists from now on. {@code resources} lists what it
 * holds (for indexResourcesInSnapshot); empty when not known.
 */
public record CompleteSnapshotCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        String hash,
        SnapshotCounts counts,
        long at,
        List<SnapshotResource> resources) {

    public CompleteSnapshotCommand(SnapshotRegistryId registryId, SnapshotId snapshotId, String hash,
                                   SnapshotCounts counts, long at) {
        this(registryId, snapshotId, hash, counts, at, List.of());
    }
}
