package ai.convo.command.intent;

import ai.convo.command.web.Commands;

import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.CreateSentenceCommand;
import ai.convo.contract.intent.DeleteIntentCommand;
import ai.convo.contract.intent.DeleteSentenceCommand;
import ai.convo.contract.intent.DetachIntentFromParentCommand;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.intent.UpdateSentenceCommand;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * Orders the intent and sentence commands of one flow: before such a command is handled (and before its
 * aggregate is loaded and locked), the flow's row of cmd_flow_lookup is locked in the command's transaction,
 * exclusively for a change of the parent tree (a create with a parent, a PATCH of parentIntentId, a delete and
 * its detachments), shared otherwise. Cycle checks and deletions then see every tree change committed before
 * them, and since this database lock is always taken before any aggregate lock, two intent commands never wait
 * on each other in opposite orders. Registered on the command bus by Axon's Spring Boot auto-configuration, as
 * every MessageHandlerInterceptor bean for commands is.
 */
@Component
class IntentFlowLock implements MessageHandlerInterceptor<CommandMessage<?>> {

    /** How a command locks its flow. */
    enum Mode { NONE, SHARED, EXCLUSIVE }

    /** A flow and how to lock it. */
    record Lock(FlowId flow, Mode mode) {
    }

    private final IntentLookup lookup;

    public IntentFlowLock(IntentLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain chain) throws Exception {
        Lock lock = lockOf(unitOfWork.getMessage().getPayload());
        if (lock.mode() != Mode.NONE) {
            lookup.lockFlow(lock.flow().value(), lock.mode() == Mode.EXCLUSIVE || Commands.inBatch());
        }
        return chain.proceed();
    }

    static Lock lockOf(Object payload) {
        if (payload instanceof CreateIntentCommand c) {
            return new Lock(c.flowId(), c.content().parentIntentId() != null ? Mode.EXCLUSIVE : Mode.SHARED);
        }
        if (payload instanceof UpdateIntentCommand c) {
            return new Lock(c.flowId(), c.patch().parentPresent() ? Mode.EXCLUSIVE : Mode.SHARED);
        }
        if (payload instanceof DeleteIntentCommand c) {
            return new Lock(c.flowId(), Mode.EXCLUSIVE);
        }
        if (payload instanceof DetachIntentFromParentCommand c) {
            return new Lock(c.flowId(), Mode.EXCLUSIVE);
        }
        if (payload instanceof CreateSentenceCommand c) {
            return new Lock(c.flowId(), Mode.SHARED);
        }
        if (payload instanceof UpdateSentenceCommand c) {
            return new Lock(c.flowId(), Mode.SHARED);
        }
        if (payload instanceof DeleteSentenceCommand c) {
            return new Lock(c.flowId(), Mode.SHARED);
        }
        return new Lock(null, Mode.NONE);
    }
}
