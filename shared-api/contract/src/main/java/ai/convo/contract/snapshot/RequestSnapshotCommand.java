package ai.convo.contract.snapshot;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Reserves one of the project's snapshot slots for a snapshot that the createSnapshot task {@code taskId} captures. */
public record RequestSnapshotCommand(
        @TargetAggregateIdentifier SnapshotRegistryId registryId,
        SnapshotId snapshotId,
        TaskId taskId,
        String name,
        String description,
        Actor actor,
        long at) {

    public ProjectId projectId() {
        return registryId.projectId();
    }
}
