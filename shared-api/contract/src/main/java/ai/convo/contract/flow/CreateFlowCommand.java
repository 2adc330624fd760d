package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A new flow in a project; a flow is its own aggregate and holds its (deprecated) states. */
public record CreateFlowCommand(
        @TargetAggregateIdentifier FlowId flowId,
        ProjectId projectId,
        Actor actor,
        String referenceId,
        String name,
        String description,
        long at) {
}
