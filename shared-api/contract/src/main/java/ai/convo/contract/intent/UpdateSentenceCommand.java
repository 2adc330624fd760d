package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.locale.LocaleId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A PATCH of a sentence; {@code text} null leaves it unchanged. {@code localeReference} is what the official
 * client sends along (its type requires it): null when absent, otherwise it must be the sentence's own locale.
 */
public record UpdateSentenceCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        SentenceId sentenceId,
        Actor actor,
        String text,
        LocaleId localeReference,
        long at) {

    public UpdateSentenceCommand(IntentId intentId, FlowId flowId, SentenceId sentenceId, Actor actor, String text,
                                 long at) {
        this(intentId, flowId, sentenceId, actor, text, null, at);
    }
}
