package ai.convo.contract.state;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The official client's batchFlowStates: creates, updates and deletes of one flow's states, all or none. */
public record BatchStatesCommand(@TargetAggregateIdentifier FlowId flowId, Actor actor, List<StateOperation> operations) {
}
