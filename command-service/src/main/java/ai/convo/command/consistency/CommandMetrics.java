package ai.convo.command.consistency;

import ai.convo.contract.common.DomainException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * Command latency by command type and outcome ({@code convo_commands_seconds}: outcome done, refused (the write model
 * said no: a 4xx) or failed), measured around the handler as the command bus runs it.
 */
@Component
class CommandMetrics implements MessageHandlerInterceptor<CommandMessage<?>> {

    private final MeterRegistry meters;

    public CommandMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        Timer.Sample sample = Timer.start(meters);
        String outcome = "failed";
        try {
            Object result = interceptorChain.proceed();
            outcome = "done";
            return result;
        } catch (DomainException refused) {
            outcome = "refused";
            throw refused;
        } finally {
            sample.stop(Timer.builder("convo.commands").description("Commands as the command bus ran them")
                    .tag("command", unitOfWork.getMessage().getPayloadType().getSimpleName())
                    .tag("outcome", outcome).register(meters));
        }
    }
}
