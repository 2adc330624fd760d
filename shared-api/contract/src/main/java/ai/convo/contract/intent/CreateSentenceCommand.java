package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.locale.LocaleId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Example sentences live inside their intent's aggregate (tens per intent). */
public record CreateSentenceCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        SentenceId sentenceId,
        Actor actor,
        String text,
        LocaleId localeId,
        long at) {
}
