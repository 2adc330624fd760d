package ai.convo.contract.intent;

import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Sent by the write side itself when an intent is deleted: each child becomes a root intent, in the same
 * transaction as the deletion. Does nothing when the intent no longer has that parent.
 */
public record DetachIntentFromParentCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        IntentId deletedParentId,
        String changedBy,
        long at) {
}
