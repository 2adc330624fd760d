package ai.convo.command.flow;

import ai.convo.command.web.Commands;

import ai.convo.contract.flow.DeleteFlowCommand;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.flow.UpdateFlowCommand;
import ai.convo.contract.state.AddIntentToStateCommand;
import ai.convo.contract.state.CreateStateCommand;
import ai.convo.contract.state.DeleteStateCommand;
import ai.convo.contract.state.RemoveDeletedIntentFromStatesCommand;
import ai.convo.contract.state.RemoveIntentFromStateCommand;
import ai.convo.contract.state.UpdateStateCommand;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Locks the flow's row of cmd_flow_lookup before a flow or state command loads the flow aggregate: exclusively
 * for a deletion, shared otherwise. Intent commands take the same row lock first too, so every command of a
 * flow takes the database lock before any aggregate lock, and a flow's deletion can no longer wait on an
 * intent's deletion that waits on the flow aggregate (a deadlock PostgreSQL cannot see).
 */
@Component
class FlowCommandLock implements MessageHandlerInterceptor<CommandMessage<?>> {

    private final JdbcTemplate jdbc;

    public FlowCommandLock(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain chain) throws Exception {
        Object payload = unitOfWork.getMessage().getPayload();
        FlowId flow = flowOf(payload);
        if (flow != null) {
            boolean exclusive = payload instanceof DeleteFlowCommand || Commands.inBatch();
            jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE flow_id = ? FOR " + (exclusive ? "UPDATE" : "SHARE"),
                    String.class, flow.value());
        }
        return chain.proceed();
    }

    /** The flow a command of the flow aggregate addresses; creation needs no lock (the row does not exist yet). */
    static FlowId flowOf(Object payload) {
        if (payload instanceof DeleteFlowCommand c) {
            return c.flowId();
        }
        if (payload instanceof UpdateFlowCommand c) {
            return c.flowId();
        }
        if (payload instanceof CreateStateCommand c) {
            return c.flowId();
        }
        if (payload instanceof UpdateStateCommand c) {
            return c.flowId();
        }
        if (payload instanceof DeleteStateCommand c) {
            return c.flowId();
        }
        if (payload instanceof AddIntentToStateCommand c) {
            return c.flowId();
        }
        if (payload instanceof RemoveIntentFromStateCommand c) {
            return c.flowId();
        }
        if (payload instanceof RemoveDeletedIntentFromStatesCommand c) {
            return c.flowId();
        }
        return null;
    }
}
