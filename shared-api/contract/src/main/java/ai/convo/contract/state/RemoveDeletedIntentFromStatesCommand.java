package ai.convo.contract.state;

import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Sent by the write side itself (not by a client) when an intent was deleted: every state of the flow that
 * names the intent forgets it. Carries who deleted the intent and when, for the states' lastChanged meta.
 */
public record RemoveDeletedIntentFromStatesCommand(
        @TargetAggregateIdentifier FlowId flowId,
        IntentId intentId,
        String deletedBy,
        long deletedAt) {
}
