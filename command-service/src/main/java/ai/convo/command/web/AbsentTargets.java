package ai.convo.command.web;

import ai.convo.contract.common.DomainException;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.springframework.stereotype.Component;

/**
 * Every command the bus runs: an aggregate that does not exist (or was deleted) is refused in the words an aggregate
 * uses for one of another organisation ({@link Absent}), so the two answers cannot differ on any route.
 */
@Component
class AbsentTargets implements MessageHandlerInterceptor<CommandMessage<?>> {

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        try {
            return interceptorChain.proceed();
        } catch (AggregateNotFoundException notFound) {
            DomainException absent = Absent.targetOf(unitOfWork.getMessage().getPayload(),
                    String.valueOf(notFound.getAggregateIdentifier()));
            if (absent == null) {
                throw notFound;
            }
            throw absent;
        }
    }
}
