package ai.convo.contract.snapshot;

import ai.convo.contract.common.Actor;
import ai.convo.contract.task.TaskId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** DELETE of a snapshot: the deleteSnapshot task {@code taskId} will remove it. */
public record RequestSnapshotDeletionCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        TaskId taskId,
        Actor actor,
        long at) {
}
