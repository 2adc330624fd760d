package ai.convo.query.deadletter;

import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.persistence.CarefulProjections;
import javax.sql.DataSource;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcSequencedDeadLetterQueue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Poison-proof projections (issue 37): every processing group of this service has Axon's sequenced dead-letter queue
 * on PostgreSQL (V11). An event a projection cannot apply parks its sequence (the group's sequencing policy: a
 * project, or an aggregate) and the processor's token goes on, so no other sequence, and no other organisation's
 * read-your-writes, waits for it. Parked sequences are tried again with back-off ({@link DeadLetterRetrier}), listed
 * and retried or evicted by system administrators ({@link DeadLetterController}).
 */
@Configuration(proxyBeanMethods = false)
class DeadLetterConfiguration {

    /** Axon's columns in snake_case, as the event and token tables. */
    static DeadLetterSchema schema() {
        return DeadLetterSchema.builder()
                .deadLetterTable("dead_letter_entry")
                .deadLetterIdentifierColumn("dead_letter_id")
                .processingGroupColumn("processing_group")
                .sequenceIdentifierColumn("sequence_identifier")
                .sequenceIndexColumn("sequence_index")
                .messageTypeColumn("message_type")
                .eventIdentifierColumn("event_identifier")
                .timestampColumn("time_stamp")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .aggregateTypeColumn("aggregate_type")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .tokenTypeColumn("token_type")
                .tokenColumn("token")
                .enqueuedAtColumn("enqueued_at")
                .lastTouchedColumn("last_touched")
                .processingStartedColumn("processing_started")
                .causeTypeColumn("cause_type")
                .causeMessageColumn("cause_message")
                .diagnosticsColumn("diagnostics")
                .build();
    }

    @Bean
    @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(name = "app.deadletters.enabled",
            matchIfMissing = true)
    ConfigurerModule deadLetterQueues(ConnectionProvider connections, TransactionManager axonTransactionManager,
                                      ParkedSequences parked) {
        DeadLetterSchema schema = schema();
        // After Axon's Spring Boot module, which registers a provider of its own (none unless configured by
        // properties) at the default order and would otherwise replace this one.
        return new ConfigurerModule() {
            @Override
            public int order() {
                return 100;
            }

            @Override
            public void configureModule(org.axonframework.config.Configurer configurer) {
                configurer.eventProcessing(processing -> processing
                        .registerDeadLetterQueueProvider(group -> config -> new ParkingQueue(group,
                                JdbcSequencedDeadLetterQueue.<EventMessage<?>>builder()
                                        .processingGroup(group)
                                        .connectionProvider(connections)
                                        .transactionManager(axonTransactionManager)
                                        .schema(schema)
                                        .genericSerializer(config.serializer())
                                        .eventSerializer(config.eventSerializer())
                                        // a full queue would fail the batch again, which is what parking is to prevent
                                        .maxSequences(Integer.MAX_VALUE)
                                        .maxSequenceSize(Integer.MAX_VALUE)
                                        .build(), parked))
                        .registerDefaultDeadLetterPolicy(config -> new ParkingPolicy()));
            }
        };
    }

    @Bean
    CarefulHandlers carefulHandlers(CarefulProjections careful, BatchingJdbcTemplate jdbc, DataSource dataSource) {
        return new CarefulHandlers(careful, jdbc, dataSource);
    }
}
