package ai.convo.contract.yesno;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteYesNoSentenceCommand(
        @TargetAggregateIdentifier YesNoIntentId yesNoIntentId,
        YesNoTarget target,
        Actor actor,
        String sentenceId,
        long at) {
}
