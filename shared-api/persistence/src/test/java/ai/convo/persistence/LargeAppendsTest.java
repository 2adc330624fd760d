package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A large append (an import) takes its global indexes alone: no other transaction's events commit inside its range,
 * so it leaves the processors no gap per event of its own. Small appends never wait for each other.
 */
@Tag("integration")
class LargeAppendsTest {

    private static DatabaseSettings settings;

    @BeforeAll
    static void database() {
        settings = CommonSchema.newDatabase();
    }

    @Test
    void aSmallAppendWaitsUntilALargeOneCommittedAndLandsAboveIt() throws Exception {
        String large = UUID.randomUUID().toString();
        String small = UUID.randomUUID().toString();
        try (Connection connection = connect()) {
            // given a large append in an open transaction
            connection.setAutoCommit(false);
            append(connection, large, AppendedPositions.EXCLUSIVE_FROM);

            // when another writer appends one event meanwhile
            CompletableFuture<Long> smallIndex = CompletableFuture.supplyAsync(() -> appendAndCommit(small, 1));

            // then it waits for the large one's commit, and its index lies above the large one's range
            awaitOneWaitingForTheAppendLock();
            assertThat(smallIndex).isNotDone();
            connection.commit();
            // the small append commits once the lock is free: its index is read after that, not before
            smallIndex.get(30, TimeUnit.SECONDS);
        }
        assertThat(smallIndex(small)).isGreaterThan(range(large)[1]);
    }

    @Test
    void aLargeAppendWaitsForSmallOnesInFlightAndLandsAboveThem() throws Exception {
        String large = UUID.randomUUID().toString();
        String small = UUID.randomUUID().toString();
        CompletableFuture<Long> largeIndex;
        try (Connection connection = connect()) {
            // given a small append in an open transaction
            connection.setAutoCommit(false);
            append(connection, small, 1);

            // when a large append starts meanwhile
            largeIndex = CompletableFuture.supplyAsync(() -> appendAndCommit(large, AppendedPositions.EXCLUSIVE_FROM));

            // then it waits for the small one's commit, and draws its indexes after it
            awaitOneWaitingForTheAppendLock();
            assertThat(largeIndex).isNotDone();
            connection.commit();
        }
        largeIndex.get(30, TimeUnit.SECONDS);
        assertThat(range(large)[0]).isGreaterThan(smallIndex(small));
        assertThat(range(large)[1] - range(large)[0]).isEqualTo(AppendedPositions.EXCLUSIVE_FROM - 1);
    }

    @Test
    void smallAppendsDoNotWaitForEachOther() throws Exception {
        // given a small append in an open transaction
        try (Connection first = connect(); Connection second = connect()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            append(first, UUID.randomUUID().toString(), AppendedPositions.EXCLUSIVE_FROM - 1);

            // when another small one appends on another connection, then it is not held up
            append(second, UUID.randomUUID().toString(), AppendedPositions.EXCLUSIVE_FROM - 1);
            second.commit();
            first.commit();
        }
    }

    private static long smallIndex(String aggregate) throws SQLException {
        return range(aggregate)[1];
    }

    private static Long appendAndCommit(String aggregate, int events) {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            append(connection, aggregate, events);
            connection.commit();
            return range(aggregate)[1];
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Until a session waits for an advisory lock (at most 30 s): observed, not slept for. */
    private static void awaitOneWaitingForTheAppendLock() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection connection = connect()) {
            while (true) {
                try (ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM pg_stat_activity "
                        + "WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'")) {
                    rows.next();
                    if (rows.getLong(1) > 0) {
                        return;
                    }
                }
                assertThat(System.nanoTime()).as("a writer waits for the append lock").isLessThan(deadline);
                Thread.sleep(20);
            }
        }
    }

    /** Appends events of the aggregate in one batch, as Axon's storage engine does. */
    private static void append(Connection connection, String aggregate, int events) throws SQLException {
        List<GenericDomainEventMessage<?>> messages = new ArrayList<>();
        for (long sequence = 0; sequence < events; sequence++) {
            messages.add(new GenericDomainEventMessage<>("TestAggregate", aggregate, sequence, Map.of("n", sequence)));
        }
        try (PreparedStatement statement = AppendedPositions.appendEvents(connection,
                new PersistenceConfiguration().eventSchema(), byte[].class, messages,
                new AxonSerializers().eventSerializer(),
                (prepared, index, timestamp) -> prepared.setString(index, timestamp.toString()))) {
            statement.executeBatch();
        }
    }

    /** The lowest and highest global index of the aggregate's committed events. */
    private static long[] range(String aggregate) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT min(global_index), max(global_index) FROM domain_event_entry WHERE aggregate_identifier = ?")) {
            statement.setString(1, aggregate);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new long[] {rows.getLong(1), rows.getLong(2)};
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(settings.jdbcUrl(), settings.username(), settings.password());
    }
}
