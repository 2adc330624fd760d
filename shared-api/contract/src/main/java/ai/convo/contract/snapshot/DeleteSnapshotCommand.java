package ai.convo.contract.snapshot;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The deleteSnapshot task removed the snapshot's content: the snapshot is gone and its slot free. */
public record DeleteSnapshotCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        long at) {
}
