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
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A command's principal rides on its append: the append statement itself sets {@code app.principal}, and the append
 * trigger records the newest index it wrote under each key, in the append's transaction. Nothing is recorded for an
 * append without a principal.
 */
@Tag("integration")
class AppendingPrincipalTest {

    private static DatabaseSettings settings;

    @BeforeAll
    static void database() {
        settings = CommonSchema.newDatabase();
    }

    @Test
    void anAppendUnderAPrincipalRecordsEachKeyAtItsNewestEventInItsOwnTransaction() throws Exception {
        String aggregate = UUID.randomUUID().toString();
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            AppendedPositions.track();
            AppendingPrincipal.as("user-1,public:test", () -> append(connection, aggregate, 0, 1));
            Long appended = AppendedPositions.take();

            assertThat(newestOf(connection, "user-1")).as("in the appending transaction").isEqualTo(appended);
            connection.commit();
        }

        long newestEvent = newestEventOf(aggregate);
        assertThat(newestOf("user-1")).isEqualTo(newestEvent);
        assertThat(newestOf("public:test")).isEqualTo(newestEvent);
        try (Connection connection = connect(); ResultSet rows = connection.createStatement().executeQuery(
                "SELECT current_setting('app.principal', true)")) {
            rows.next();
            assertThat(rows.getString(1)).as("the setting ends with the transaction").isNullOrEmpty();
        }
    }

    @Test
    void anAppendWithoutAPrincipalRecordsNothing() throws Exception {
        String aggregate = UUID.randomUUID().toString();
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            AppendingPrincipal.as("", () -> append(connection, aggregate, 0));
            append(connection, aggregate, 1);
            connection.commit();
        }

        try (Connection connection = connect(); ResultSet rows = connection.createStatement().executeQuery(
                "SELECT count(*) FROM principal_write p JOIN domain_event_entry e ON e.global_index = p.position "
                        + "WHERE e.aggregate_identifier = '" + aggregate + "'")) {
            rows.next();
            assertThat(rows.getLong(1)).isZero();
        }
        assertThat(newestEventOf(aggregate)).as("both appended").isPositive();
    }

    @Test
    void aRolledBackAppendRecordsNothing() throws Exception {
        String aggregate = UUID.randomUUID().toString();
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            AppendingPrincipal.as("user-rolled-back", () -> append(connection, aggregate, 0));
            connection.rollback();
        }

        assertThat(newestOf("user-rolled-back")).isZero();
    }

    /** Appends events of the aggregate at these sequence numbers in one batch, as Axon's storage engine does. */
    private static Void append(Connection connection, String aggregate, long... sequences) throws SQLException {
        List<GenericDomainEventMessage<?>> events = new ArrayList<>();
        for (long sequence : sequences) {
            events.add(new GenericDomainEventMessage<>("TestAggregate", aggregate, sequence, Map.of("n", sequence)));
        }
        try (PreparedStatement statement = AppendedPositions.appendEvents(connection, new PersistenceConfiguration().eventSchema(), byte[].class,
                events, new AxonSerializers().eventSerializer(),
                (prepared, index, timestamp) -> prepared.setString(index, timestamp.toString()))) {
            statement.executeBatch();
        }
        return null;
    }

    private static long newestOf(String key) throws SQLException {
        try (Connection connection = connect()) {
            return newestOf(connection, key);
        }
    }

    private static long newestOf(Connection connection, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT coalesce(max(position), 0) FROM principal_write WHERE principal_key = ?")) {
            statement.setString(1, key);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static long newestEventOf(String aggregate) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT coalesce(max(global_index), 0) FROM domain_event_entry WHERE aggregate_identifier = ?")) {
            statement.setString(1, aggregate);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(settings.jdbcUrl(), settings.username(), settings.password());
    }
}
