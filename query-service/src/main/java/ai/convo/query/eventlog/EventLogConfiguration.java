package ai.convo.query.eventlog;

import ai.convo.persistence.BatchingJdbcTemplate;
import java.util.List;
import java.util.Map;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The event log numbers each organisation's events on one thread: its processor is sequenced per organisation.
 * Every processor stamps its transaction with the global index of the event it handles (app.position), so the
 * row_history trigger knows which event wrote each version of a resource row (what asOf reads).
 */
@Configuration(proxyBeanMethods = false)
class EventLogConfiguration {

    @Bean
    public ConfigurerModule eventLogProcessing(BatchingJdbcTemplate jdbc) {
        MessageHandlerInterceptor<EventMessage<?>> stamp = new PositionStamp(jdbc);
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(EventLogProjection.GROUP,
                        config -> event -> EventFacts.organisationOf(event.getPayload()))
                .registerDefaultHandlerInterceptor((config, name) -> name.equals(EventLogProjection.GROUP)
                        ? (unitOfWork, chain) -> chain.proceed() : stamp));
    }

    /**
     * Sets app.position for the rest of the transaction (the batch), before each event's handlers write: sent with
     * the event's first statement (a procedure, V23 and V40), not in a round trip of its own.
     */
    static final class PositionStamp implements MessageHandlerInterceptor<EventMessage<?>> {

        private static final String INDEXES = PositionStamp.class.getName() + ".indexes";

        private final BatchingJdbcTemplate jdbc;

        PositionStamp(BatchingJdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Override
        public Object handle(UnitOfWork<? extends EventMessage<?>> unitOfWork, InterceptorChain chain) throws Exception {
            // By the event's id, not its tracking token: for an event that fills a gap the token's position is the
            // furthest index seen, another event's. A batch's indexes are looked up together, at its first event.
            String id = unitOfWork.getMessage().getIdentifier();
            if (unitOfWork instanceof BatchingUnitOfWork<?> batch && batch.getMessages().size() > 1) {
                Map<String, Long> indexes = batch.getOrComputeResource(INDEXES, key -> indexesOf(batch.getMessages()));
                jdbc.carriedSetting("CALL stamp_index(?::bigint)", "stamp_index_value(?::bigint)", indexes.get(id));
            } else {
                jdbc.carriedSetting("CALL stamp_position(?)", "stamp_position_value(?)", id);
            }
            return chain.proceed();
        }

        private Map<String, Long> indexesOf(List<?> events) {
            return GlobalIndexes.of(jdbc, events.stream().map(event -> ((EventMessage<?>) event).getIdentifier())
                    .toList());
        }
    }
}
