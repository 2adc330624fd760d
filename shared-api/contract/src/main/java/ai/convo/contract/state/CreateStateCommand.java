package ai.convo.contract.state;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentId;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** States live inside the flow aggregate, so "one default" and "unique names" are decided in one place. */
public record CreateStateCommand(
        @TargetAggregateIdentifier FlowId flowId,
        StateId stateId,
        Actor actor,
        String referenceId,
        String name,
        StateType type,
        boolean isDefault,
        List<IntentId> intentIds,
        long at) {

    public CreateStateCommand {
        intentIds = intentIds == null ? List.of() : List.copyOf(intentIds);
    }
}
