package ai.convo.contract.function;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates an instance of a function, queued; {@code code} is the function's code at trigger time, which the run uses. */
public record TriggerFunctionCommand(
        @TargetAggregateIdentifier FunctionInstanceId functionInstanceId,
        FunctionId functionId,
        ProjectId projectId,
        Actor actor,
        String trigger,
        Map<String, Object> parameters,
        String code,
        TaskId taskId,
        long at) {
}
