package ai.convo.query.eventlog;

import java.util.OptionalLong;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The event log numbers each organisation's events on one thread: its processor is sequenced per organisation.
 * Every processor stamps its transaction with the global index of the event it handles (app.position), so the
 * row_history trigger knows which event wrote each version of a resource row (what asOf reads).
 */
@Configuration(proxyBeanMethods = false)
public class EventLogConfiguration {

    @Bean
    public ConfigurerModule eventLogProcessing(JdbcTemplate jdbc) {
        MessageHandlerInterceptor<EventMessage<?>> stamp = new PositionStamp(jdbc);
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(EventLogProjection.GROUP,
                        config -> event -> EventFacts.organisationOf(event.getPayload()))
                .registerDefaultHandlerInterceptor((config, name) -> name.equals(EventLogProjection.GROUP)
                        ? (unitOfWork, chain) -> chain.proceed() : stamp));
    }

    /** Sets app.position for the rest of the transaction (the batch), before each event's handlers run. */
    static final class PositionStamp implements MessageHandlerInterceptor<EventMessage<?>> {

        private final JdbcTemplate jdbc;

        PositionStamp(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Override
        public Object handle(UnitOfWork<? extends EventMessage<?>> unitOfWork, InterceptorChain chain) throws Exception {
            if (unitOfWork.getMessage() instanceof TrackedEventMessage<?> tracked) {
                OptionalLong position = tracked.trackingToken().position();
                if (position.isPresent()) {
                    jdbc.queryForObject("SELECT set_config('app.position', ?, true)", String.class,
                            Long.toString(position.getAsLong()));
                }
            }
            return chain.proceed();
        }
    }
}
