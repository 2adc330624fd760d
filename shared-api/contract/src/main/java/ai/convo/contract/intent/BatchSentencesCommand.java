package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The official client's batchIntentSentences: creates, updates and deletes of one intent's sentences, all or none. */
public record BatchSentencesCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        Actor actor,
        List<SentenceOperation> operations,
        long at) {
}
