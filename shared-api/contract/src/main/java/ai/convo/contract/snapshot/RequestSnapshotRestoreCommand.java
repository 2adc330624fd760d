package ai.convo.contract.snapshot;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** POST restore: task {@code taskId} will make {@code targetProjectId} exactly the snapshot's content. */
public record RequestSnapshotRestoreCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        ProjectId targetProjectId,
        TaskId taskId,
        Actor actor,
        long at) {
}
