package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteIntentCommand(@TargetAggregateIdentifier IntentId intentId, FlowId flowId, Actor actor, long at) {
}
