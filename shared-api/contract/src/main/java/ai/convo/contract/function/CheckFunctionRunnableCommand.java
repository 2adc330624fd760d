package ai.convo.contract.function;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Asks the function whether the actor may run it now (visible, not disabled); answers its record. Changes nothing. */
public record CheckFunctionRunnableCommand(
        @TargetAggregateIdentifier FunctionId functionId,
        Actor actor) {
}
