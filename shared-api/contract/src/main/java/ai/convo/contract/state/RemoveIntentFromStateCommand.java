package ai.convo.contract.state;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Removes one intent from a state's intentIds; removing one that is not there changes nothing. */
public record RemoveIntentFromStateCommand(
        @TargetAggregateIdentifier FlowId flowId,
        StateId stateId,
        Actor actor,
        IntentId intentId,
        long at) {
}
