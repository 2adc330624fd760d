package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Deletes a flow; {@code inProject}, when given (a batch of one project's flows), must be the flow's project. */
public record DeleteFlowCommand(@TargetAggregateIdentifier FlowId flowId, Actor actor, long at, ProjectId inProject) {

    public DeleteFlowCommand(FlowId flowId, Actor actor, long at) {
        this(flowId, actor, at, null);
    }
}
