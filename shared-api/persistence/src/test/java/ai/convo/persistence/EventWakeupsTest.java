package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Appending events raises no NOTIFY in the appending transaction (it would hold PostgreSQL's notification lock across
 * the commit's flush); the wake-up comes after the commit, from EventWakeups, once per unit of work.
 */
@Tag("integration")
class EventWakeupsTest {

    private static DatabaseSettings settings;

    @BeforeAll
    static void database() {
        settings = CommonSchema.newDatabase();
    }

    @AfterAll
    static void done() {
        settings = null;
    }

    private EventWakeups wakeups;

    @BeforeEach
    void start() {
        wakeups = new EventWakeups(settings, java.time.Duration.ofMillis(5));
        wakeups.start();
    }

    @AfterEach
    void stop() {
        wakeups.stop();
    }

    @Test
    void anAppendingTransactionRaisesNoNotificationButStillRecordsItsPrincipalsWrite() throws Exception {
        try (Connection listener = connect(); Connection writer = connect()) {
            listen(listener);
            writer.setAutoCommit(false);
            try (Statement statement = writer.createStatement()) {
                statement.execute("SELECT set_config('app.principal', 'user-1', true)");
                statement.execute(insertEvent("agg-1", 0));
            }
            writer.commit();

            assertThat(notifications(listener, 300)).isEmpty();
            try (Statement statement = writer.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT count(*) FROM principal_write p JOIN domain_event_entry e "
                         + "ON e.global_index = p.position WHERE p.principal_key = 'user-1' AND e.aggregate_identifier = 'agg-1'")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(1);
            }
        }
    }

    @Test
    void aUnitOfWorkWakesTheListenersOnceAndOnlyAfterItCommitted() throws Exception {
        try (Connection listener = connect()) {
            listen(listener);
            DefaultUnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
            List<EventMessage<?>> events = List.of(GenericEventMessage.asEventMessage("one"));
            wakeups.handle(events);
            wakeups.handle(events);

            assertThat(notifications(listener, 300)).as("nothing before the commit").isEmpty();
            unitOfWork.commit();

            assertThat(notifications(listener, 5_000)).hasSize(1);
            assertThat(notifications(listener, 300)).isEmpty();
            assertThat(wakeups.sent()).isEqualTo(1);
        }
    }

    @Test
    void aRolledBackUnitOfWorkWakesNobody() throws Exception {
        try (Connection listener = connect()) {
            listen(listener);
            DefaultUnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
            wakeups.handle(List.of(GenericEventMessage.asEventMessage("one")));
            unitOfWork.rollback();

            assertThat(notifications(listener, 500)).isEmpty();
            assertThat(wakeups.sent()).isZero();
        }
    }

    @Test
    void eventsPublishedOutsideAUnitOfWorkWakeTheListenersAtOnce() throws Exception {
        try (Connection listener = connect()) {
            listen(listener);
            wakeups.handle(List.of(GenericEventMessage.asEventMessage("one")));

            assertThat(notifications(listener, 5_000)).hasSize(1);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(settings.jdbcUrl(), settings.username(), settings.password());
    }

    private static void listen(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + EventNotifications.CHANNEL);
        }
    }

    /** The notifications on {@code domain_events} that arrive within the given time. */
    private static List<PGNotification> notifications(Connection connection, int millis) throws SQLException {
        List<PGNotification> received = new ArrayList<>();
        long until = System.currentTimeMillis() + millis;
        PGConnection pg = connection.unwrap(PGConnection.class);
        for (long left = millis; left > 0; left = until - System.currentTimeMillis()) {
            PGNotification[] some = pg.getNotifications((int) left);
            if (some != null) {
                for (PGNotification notification : some) {
                    if (notification.getName().equals(EventNotifications.CHANNEL)) {
                        received.add(notification);
                    }
                }
                if (!received.isEmpty() && millis > 1_000) {
                    // Waited for the first; anything else that belongs to it is already on its way.
                    some = pg.getNotifications(300);
                    if (some != null) {
                        received.addAll(List.of(some));
                    }
                    return received;
                }
            }
        }
        return received;
    }

    private static String insertEvent(String aggregate, long sequence) {
        return "INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type, "
                + "time_stamp, payload_type, payload_revision, payload, meta_data) VALUES (gen_random_uuid()::text, '"
                + aggregate + "', " + sequence + ", 'Test', '2026-11-25T00:00:00Z', 'test.Event', NULL, '\\x00', NULL)";
    }
}
