package ai.convo.command.slotfiller;

import ai.convo.command.web.Commands;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.slotfiller.CreateSlotFillerCommand;
import ai.convo.contract.slotfiller.DeleteSlotFillerCommand;
import ai.convo.contract.slotfiller.UpdateSlotFillerCommand;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Locks the flow's row of cmd_flow_lookup (shared; exclusive inside a batch, as the flow's own commands do) before a
 * slot filler command loads its aggregate. A flow's deletion locks the row exclusively, so a slot filler created
 * at the same moment either commits first (and goes with the flow) or finds the flow gone: none outlives its flow.
 * The database lock comes before any aggregate lock, as for every command of a flow (FlowCommandLock).
 */
@Component
class SlotFillerFlowLock implements MessageHandlerInterceptor<CommandMessage<?>> {

    private final JdbcTemplate jdbc;

    SlotFillerFlowLock(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain chain) throws Exception {
        FlowId flow = flowOf(unitOfWork.getMessage().getPayload());
        if (flow != null) {
            jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE flow_id = ? FOR "
                    + (Commands.inBatch() ? "UPDATE" : "SHARE"), String.class, flow.value());
        }
        return chain.proceed();
    }

    static FlowId flowOf(Object payload) {
        if (payload instanceof CreateSlotFillerCommand c) {
            return c.flowId();
        }
        if (payload instanceof UpdateSlotFillerCommand c) {
            return c.flowId();
        }
        if (payload instanceof DeleteSlotFillerCommand c) {
            return c.flowId();
        }
        return null;
    }
}
