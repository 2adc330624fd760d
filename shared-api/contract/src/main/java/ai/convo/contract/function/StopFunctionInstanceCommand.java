package ai.convo.contract.function;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Answers the id of the instance's task while it may still be running (to cancel), else null. Idempotent. */
public record StopFunctionInstanceCommand(
        @TargetAggregateIdentifier FunctionInstanceId functionInstanceId,
        FunctionId functionId,
        Actor actor,
        long at) {
}
