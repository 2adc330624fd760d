package ai.convo.contract.slotfiller;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Changes a slot filler of the flow named in the path (another flow's answers as a missing one). */
public record UpdateSlotFillerCommand(
        @TargetAggregateIdentifier SlotFillerId slotFillerId,
        FlowId flowId,
        Actor actor,
        SlotFillerPatch patch,
        long at) {
}
