package ai.convo.contract.state;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteStateCommand(@TargetAggregateIdentifier FlowId flowId, StateId stateId, Actor actor, long at) {
}
