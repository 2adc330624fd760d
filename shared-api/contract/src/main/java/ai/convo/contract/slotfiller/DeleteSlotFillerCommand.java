package ai.convo.contract.slotfiller;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteSlotFillerCommand(
        @TargetAggregateIdentifier SlotFillerId slotFillerId,
        FlowId flowId,
        Actor actor,
        long at) {
}
