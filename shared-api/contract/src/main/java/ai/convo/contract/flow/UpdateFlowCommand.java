package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A flow PATCH; {@code inProject}, when given (a batch of one project's flows), must be the flow's project. */
public record UpdateFlowCommand(
        @TargetAggregateIdentifier FlowId flowId,
        Actor actor,
        FlowPatch patch,
        long at,
        ProjectId inProject) {

    public UpdateFlowCommand(FlowId flowId, Actor actor, FlowPatch patch, long at) {
        this(flowId, actor, patch, at, null);
    }
}
