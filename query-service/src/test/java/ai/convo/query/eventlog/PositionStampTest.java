package ai.convo.query.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.query.ReadModelSchema;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every event's handlers see app.position (what the row-history trigger records) set to that event's own global index,
 * whether the event is handled alone or in a batch whose indexes are looked up together; an event not in the store
 * gets none.
 */
@Tag("integration")
class PositionStampTest {

    @Test
    void givenBatchesAndASingleEvent_whenStamped_thenEachEventSeesItsOwnIndex() {
        // given: events stored in an order other than the batch's (a batch may hold one that filled a gap)
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        BatchingJdbcTemplate jdbc = new BatchingJdbcTemplate(dataSource, 100);
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        List<EventMessage<?>> events = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            events.add(GenericEventMessage.asEventMessage("event " + i));
        }
        List<Long> indexes = new ArrayList<>();
        for (EventMessage<?> event : List.of(events.get(2), events.get(0), events.get(1))) {
            indexes.add(jdbc.queryForObject("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, "
                    + "sequence_number, time_stamp, payload_type, payload) VALUES (?, ?, 0, 'now', 'x', '\\x7b7d'::bytea) "
                    + "RETURNING global_index", Long.class, event.getIdentifier(), event.getIdentifier()));
        }
        List<String> expected = List.of(String.valueOf(indexes.get(1)), String.valueOf(indexes.get(2)),
                String.valueOf(indexes.get(0)), "");
        EventLogConfiguration.PositionStamp stamp = new EventLogConfiguration.PositionStamp(jdbc);

        // when: the four in one batch (the last not in the store), then the first alone
        List<String> seen = transactions.execute(tx -> stamped(stamp, jdbc, events));
        List<String> alone = transactions.execute(tx -> stamped(stamp, jdbc, events.subList(0, 1)));

        // then
        assertThat(seen).isEqualTo(expected);
        assertThat(alone).containsExactly(expected.get(0));
    }

    private static List<String> stamped(EventLogConfiguration.PositionStamp stamp, BatchingJdbcTemplate jdbc,
                                        List<EventMessage<?>> batch) {
        List<String> seen = new ArrayList<>();
        BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(batch);
        var result = unitOfWork.executeWithResult(() -> stamp.handle(unitOfWork, () -> {
            // a handler's first write takes the stamp along; then the setting is what the trigger would read
            jdbc.update("UPDATE domain_event_entry SET sequence_number = sequence_number WHERE false");
            seen.add(jdbc.queryForObject("SELECT coalesce(current_setting('app.position', true), 'unset')",
                    String.class));
            return null;
        }));
        assertThat(result.isExceptional()).as("%s", result.optionalExceptionResult()).isFalse();
        return seen;
    }
}
