package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A PATCH of a sentence; {@code text} null leaves it unchanged. */
public record UpdateSentenceCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        SentenceId sentenceId,
        Actor actor,
        String text,
        long at) {
}
