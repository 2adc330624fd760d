package ai.convo.persistence;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A connection of a service's own, outside the pools (LISTEN must stay on one session; a NOTIFY must not wait for a
 * pooled connection), kept while {@code running}: lost, it is opened again after a growing pause (0.1 s to 5 s).
 */
final class DedicatedConnection {

    /** What runs on the connection until it returns or the connection fails. */
    interface Session {
        void run(Connection connection) throws SQLException, InterruptedException;
    }

    private DedicatedConnection() {
    }

    /** Runs {@code session} on a fresh connection again and again while {@code running}; {@code lost} hears each failure. */
    static void keep(DatabaseSettings settings, BooleanSupplier running, Session session, Consumer<SQLException> lost) {
        long backoff = 100;
        while (running.getAsBoolean()) {
            Properties properties = new Properties();
            properties.setProperty("user", settings.username());
            if (settings.password() != null && !settings.password().isEmpty()) {
                properties.setProperty("password", settings.password());
            }
            try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), properties)) {
                backoff = 100;
                session.run(connection);
            } catch (SQLException e) {
                if (running.getAsBoolean()) {
                    lost.accept(e);
                    try {
                        Thread.sleep(backoff);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    backoff = Math.min(backoff * 2, 5000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
