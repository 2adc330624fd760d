package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Creates an intent in a flow. Its sentences live inside the intent aggregate; the set-based rules (unique
 * name per flow, parent in the same flow) are decided by the aggregate with the write-side intent lookup.
 */
public record CreateIntentCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        Actor actor,
        String referenceId,
        IntentContent content,
        long at) {
}
