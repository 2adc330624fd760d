package ai.convo.query.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.query.ReadModelSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A live batch loads the event log and the audit trail in bulk ({@link EventLogLoad}); the oracle is the per-event
 * statement, which the projection runs for an event outside a transaction. Both are fed the same events: requests of
 * several organisations interleaved, past alsoChanged's 100, one resource changed twice, an action named by a later
 * event, events of no actor, and a request split across batches of random sizes.
 */
@Tag("integration")
class EventLogLoadTest {

    @Test
    void givenTheSameEvents_whenLoadedInBatches_thenTheSameRowsAsEventByEvent() {
        // given
        List<DomainEventMessage<?>> events = events();
        Tables eventByEvent = new Tables();
        Tables batched = new Tables();

        // when: one database event by event, outside a transaction (the statement), the other in live batches
        events.forEach(event -> eventByEvent.projection.on(event.getPayload(), event));
        Random random = new Random(44);
        for (int from = 0; from < events.size(); ) {
            int to = Math.min(events.size(), from + 1 + random.nextInt(250));
            List<DomainEventMessage<?>> batch = events.subList(from, to);
            batched.transactions.executeWithoutResult(tx -> batch.forEach(e -> batched.projection.on(e.getPayload(), e)));
            from = to;
        }

        // then
        for (String table : List.of("event_log", "audit_event", "audit_event_overflow")) {
            assertThat(batched.rows(table)).as(table).isEqualTo(eventByEvent.rows(table)).isNotEmpty();
        }
        assertThat(batched.jdbc.queryForObject("SELECT count(*) FROM audit_event_overflow", Long.class))
                .as("the large request went past alsoChanged's 100").isEqualTo(29L);
    }

    /** A migrated database with the events in its store (the projection looks their global indexes up by id). */
    private final class Tables {
        final BatchingJdbcTemplate jdbc;
        final TransactionTemplate transactions;
        final EventLogProjection projection;

        Tables() {
            DriverManagerDataSource dataSource = ReadModelSchema.migrated();
            jdbc = new BatchingJdbcTemplate(dataSource, 100);
            transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
            projection = new EventLogProjection(jdbc);
            for (DomainEventMessage<?> event : STORED) {
                jdbc.update("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, "
                                + "time_stamp, payload_type, payload) VALUES (?, ?, ?, 'now', ?, '\\x7b7d'::bytea)",
                        event.getIdentifier(), event.getAggregateIdentifier(), event.getSequenceNumber(),
                        event.getPayloadType().getName());
            }
        }

        List<String> rows(String table) {
            return jdbc.queryForList("SELECT t::text FROM " + table + " t ORDER BY t::text", String.class);
        }
    }

    private static final List<DomainEventMessage<?>> STORED = new ArrayList<>();

    private static List<DomainEventMessage<?>> events() {
        if (!STORED.isEmpty()) {
            return STORED;
        }
        String orgA = Ids.newId();
        String orgB = Ids.newId();
        String orgC = Ids.newId();
        String user = Ids.newId();
        String pa = Ids.newId();
        String pb = Ids.newId();
        String pc = Ids.newId();
        Map<String, Long> sequences = new HashMap<>();
        String progressed = Ids.newId();
        add(sequences, progressed, new TaskCreatedEvent(progressed, pc, orgC, "import", Map.of(), user, "ADMIN", 1500L),
                null);
        String large = "request-" + Ids.newId();
        for (int i = 0; i < 130; i++) {
            add(sequences, pa, new LocaleCreatedEvent(pa, orgA, Ids.newId(), UUID.randomUUID().toString(),
                    "Locale " + i, "de-DE", false, null, user, 2000L + i), large);
            if (i % 10 == 0) {
                String twice = "request-" + Ids.newId();
                String locale = Ids.newId();
                add(sequences, pb, new LocaleCreatedEvent(pb, orgB, locale, UUID.randomUUID().toString(),
                        "Twice " + i, "fr-FR", false, null, user, 3000L + i), twice);
                add(sequences, pb, new LocaleUpdatedEvent(pb, orgB, locale, List.of("name"),
                        "Twice renamed \t\\ \n" + i, "fr-FR", false, null, user, 3001L + i), twice);
                add(sequences, pb, new LocaleCreatedEvent(pb, orgB, Ids.newId(), UUID.randomUUID().toString(),
                        "Other " + i, "it-IT", false, null, user, 3002L + i), twice);
                add(sequences, progressed, new TaskProgressedEvent(progressed, pc, orgC, i, 130, 4000L + i), null);
            }
            if (i % 40 == 0) {
                String snapshot = "request-" + Ids.newId();
                String task = Ids.newId();
                add(sequences, task, new TaskCreatedEvent(task, pc, orgC, "createSnapshot", Map.of(), user, "ADMIN",
                        5000L + i), snapshot);
                String snapshotId = Ids.newId();
                add(sequences, snapshotId, new SnapshotRequestedEvent(snapshotId, pc, orgC, task, "Snapshot " + i, "",
                        user, 5001L + i), snapshot);
            }
        }
        return STORED;
    }

    private static void add(Map<String, Long> sequences, String aggregate, Object payload, String trace) {
        long sequence = sequences.merge(aggregate, 1L, Long::sum) - 1;
        STORED.add(new GenericDomainEventMessage<>(payload.getClass().getSimpleName(), aggregate, sequence, payload,
                trace == null ? MetaData.emptyInstance() : MetaData.with("traceId", trace)));
    }
}
