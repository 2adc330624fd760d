package ai.convo.contract.snapshot;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The createSnapshot task stored the content of a pending snapshot: the snapshot exists from now on. */
public record CompleteSnapshotCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        String hash,
        SnapshotCounts counts,
        long at) {
}
