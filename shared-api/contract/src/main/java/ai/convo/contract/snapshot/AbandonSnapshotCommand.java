package ai.convo.contract.snapshot;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The createSnapshot task failed or was cancelled: the pending snapshot is dropped and its slot freed. */
public record AbandonSnapshotCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        String reason,
        long at) {
}
