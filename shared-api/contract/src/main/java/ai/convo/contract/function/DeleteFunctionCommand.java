package ai.convo.contract.function;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteFunctionCommand(
        @TargetAggregateIdentifier FunctionId functionId,
        Actor actor,
        long at) {
}
