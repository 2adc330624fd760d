package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteFlowCommand(@TargetAggregateIdentifier FlowId flowId, Actor actor, long at) {
}
