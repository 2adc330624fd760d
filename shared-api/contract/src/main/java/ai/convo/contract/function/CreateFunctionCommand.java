package ai.convo.contract.function;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a Function in a project. Each Function is its own aggregate. */
public record CreateFunctionCommand(
        @TargetAggregateIdentifier FunctionId functionId,
        ProjectId projectId,
        Actor actor,
        String referenceId,
        String name,
        String code,
        boolean disabled,
        long at) {
}
