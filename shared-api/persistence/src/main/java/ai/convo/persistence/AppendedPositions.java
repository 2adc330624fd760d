package ai.convo.persistence;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.JdbcEventStorageEngineStatements;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.TimestampWriter;
import org.axonframework.serialization.Serializer;

/**
 * Axon's append statement, doing three more things on the way. It records the global index of the newest event a thread
 * appended while it {@link #track tracks} its appends, read from the append itself ({@code RETURNING}): a command
 * answers it as its position without a query after its commit. It names the thread's {@link AppendingPrincipal}
 * for the append trigger in the same statement, so the principal costs no round trip of its own. And a large append
 * (an import) takes the global index range alone: see {@link #EXCLUSIVE_FROM}.
 */
public final class AppendedPositions {

    /**
     * Appends of this many events or more hold the append lock exclusively until their transaction ends; smaller ones
     * share it (in their append statement itself). A large transaction whose indexes interleaved with other writers'
     * commits left the processors' tokens one gap per event of its own (10,000 of them beside another organisation's
     * writes), copied with every event, and past the gap bound its events would have been skipped. Now its indexes lie
     * above every committed small append and below every later one. Small appends still never wait for each other.
     */
    public static final int EXCLUSIVE_FROM = 100;
    /** The advisory lock's key (any constant no other lock of this database uses). */
    static final long APPEND_LOCK = 0x61707065_6e64L;

    private static final ThreadLocal<long[]> NEWEST = new ThreadLocal<>();

    private AppendedPositions() {
    }

    /** From now on, this thread's appends are tracked. */
    public static void track() {
        NEWEST.set(new long[] {-1});
    }

    /** When tracking: forgets what was appended so far (by an attempt whose transaction rolled back). */
    public static void restart() {
        long[] newest = NEWEST.get();
        if (newest != null) {
            newest[0] = -1;
        }
    }

    /** The newest global index appended since {@link #track}, or null when nothing was; tracking ends. */
    public static Long take() {
        long[] newest = NEWEST.get();
        NEWEST.remove();
        return newest == null || newest[0] < 0 ? null : newest[0];
    }

    /** For {@code JdbcEventStorageEngine.Builder#appendEvents}. */
    static PreparedStatement appendEvents(Connection connection, EventSchema schema, Class<?> dataType,
                                          List<? extends EventMessage<?>> events, Serializer serializer,
                                          TimestampWriter timestampWriter) throws SQLException {
        long[] newest = NEWEST.get();
        String principal = AppendingPrincipal.current();
        if (events.size() >= EXCLUSIVE_FROM) {
            try (java.sql.Statement lock = connection.createStatement()) {
                lock.execute("SELECT pg_advisory_xact_lock(" + APPEND_LOCK + ")");
            }
        }
        Connection target = newest == null ? connection
                : returningIndexes(connection, schema.globalIndexColumn(), newest);
        target = sharingLock(target, principal);
        return JdbcEventStorageEngineStatements.appendEvents(target, schema, dataType, events, serializer,
                timestampWriter);
    }

    /** The VALUES list of Axon's append statement: one placeholder per field of the event schema. */
    static final String AXON_VALUES = "VALUES (?,?,?,?,?,?,?,?,?)";

    /**
     * The connection, except that the append it prepares first takes the append lock shared and, with a principal, sets
     * {@code app.principal} for the transaction: the row comes from a select over both (volatile, so evaluated before
     * the row's default global index is drawn), which runs before the statement's AFTER trigger reads the setting.
     */
    private static Connection sharingLock(Connection connection, String principal) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args.length == 1) {
                        String sql = (String) args[0];
                        if (!sql.endsWith(AXON_VALUES)) {
                            throw new IllegalStateException("Axon's append statement changed shape; the append "
                                    + "lock and the principal cannot ride on it: " + sql);
                        }
                        String head = sql.substring(0, sql.length() - AXON_VALUES.length())
                                + "SELECT ?,?,?,?,?,?,?,?,? FROM (SELECT pg_advisory_xact_lock_shared(" + APPEND_LOCK + ")";
                        if (principal == null) {
                            return connection.prepareStatement(head + ") AS appending");
                        }
                        return bindingPrincipal(connection.prepareStatement(
                                head + ", set_config('app.principal', ?, true)) AS principal"), principal);
                    }
                    return invoke(connection, method, args);
                });
    }

    /** The statement, with the principal bound (after the event's nine fields) for every event of the batch. */
    private static PreparedStatement bindingPrincipal(PreparedStatement statement, String principal) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("addBatch") && (args == null || args.length == 0)) {
                        statement.setString(10, principal);
                    }
                    return invoke(statement, method, args);
                });
    }

    /** The connection, except that the statement it prepares returns the global index and records the newest. */
    private static Connection returningIndexes(Connection connection, String indexColumn, long[] newest) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args.length == 1) {
                        return recording(connection.prepareStatement((String) args[0], new String[] {indexColumn}),
                                newest);
                    }
                    return invoke(connection, method, args);
                });
    }

    private static PreparedStatement recording(PreparedStatement statement, long[] newest) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    Object result = invoke(statement, method, args);
                    if (method.getName().equals("executeBatch")) {
                        try (ResultSet indexes = statement.getGeneratedKeys()) {
                            while (indexes.next()) {
                                newest[0] = Math.max(newest[0], indexes.getLong(1));
                            }
                        }
                    }
                    return result;
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
