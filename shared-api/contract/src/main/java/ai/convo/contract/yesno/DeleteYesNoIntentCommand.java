package ai.convo.contract.yesno;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Resets a yes/no intent to its built-in sentences ({@link YesNoIntentResetEvent}). */
public record DeleteYesNoIntentCommand(
        @TargetAggregateIdentifier YesNoIntentId yesNoIntentId,
        YesNoTarget target,
        Actor actor,
        long at) {
}
