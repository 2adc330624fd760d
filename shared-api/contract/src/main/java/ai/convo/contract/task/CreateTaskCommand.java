package ai.convo.contract.task;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a Task in status {@code queued} for the work of {@code type} on a project of the actor's organisation. */
public record CreateTaskCommand(
        @TargetAggregateIdentifier TaskId taskId,
        ProjectId projectId,
        Actor actor,
        String type,
        Map<String, Object> parameters,
        long at) {
}
