package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteSentenceCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        SentenceId sentenceId,
        Actor actor,
        long at) {
}
