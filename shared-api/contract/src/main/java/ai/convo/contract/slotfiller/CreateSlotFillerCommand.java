package ai.convo.contract.slotfiller;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a slot filler in a flow. Each slot filler is its own aggregate. */
public record CreateSlotFillerCommand(
        @TargetAggregateIdentifier SlotFillerId slotFillerId,
        FlowId flowId,
        Actor actor,
        String referenceId,
        SlotFillerSettings settings,
        long at) {
}
