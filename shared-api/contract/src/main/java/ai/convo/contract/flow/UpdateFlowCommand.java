package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record UpdateFlowCommand(
        @TargetAggregateIdentifier FlowId flowId,
        Actor actor,
        FlowPatch patch,
        long at) {
}
