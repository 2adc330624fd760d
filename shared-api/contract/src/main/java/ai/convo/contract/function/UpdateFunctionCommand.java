package ai.convo.contract.function;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record UpdateFunctionCommand(
        @TargetAggregateIdentifier FunctionId functionId,
        Actor actor,
        FunctionPatch patch,
        long at) {
}
