package ai.convo.contract.state;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Adds one intent of the same flow to a state's intentIds; adding one that is already there changes nothing. */
public record AddIntentToStateCommand(
        @TargetAggregateIdentifier FlowId flowId,
        StateId stateId,
        Actor actor,
        IntentId intentId,
        long at) {
}
