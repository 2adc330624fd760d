package ai.convo.persistence;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Listens for PostgreSQL's NOTIFY on new events (a statement trigger on domain_event_entry raises it) and
 * wakes whoever registered. NOTIFY is delivered only after the appending transaction commits, so a reader
 * woken by it always finds the new rows.
 */
public final class EventNotifications implements SmartLifecycle {

    static final String CHANNEL = "domain_events";
    private static final Logger log = LoggerFactory.getLogger(EventNotifications.class);

    private final DatabaseSettings settings;
    private final Set<Runnable> listeners = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private Thread thread;

    public EventNotifications(DatabaseSettings settings) {
        this.settings = settings;
    }

    public void register(Runnable listener) {
        listeners.add(listener);
    }

    public void unregister(Runnable listener) {
        listeners.remove(listener);
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::listen, "event-notifications");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void listen() {
        long backoff = 100;
        while (running) {
            Properties properties = new Properties();
            properties.setProperty("user", settings.username());
            if (settings.password() != null && !settings.password().isEmpty()) {
                properties.setProperty("password", settings.password());
            }
            try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), properties)) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                backoff = 100;
                // Anything appended while we were not listening: wake everyone once.
                wakeAll();
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null && notifications.length > 0) {
                        wakeAll();
                    }
                }
            } catch (SQLException e) {
                if (running) {
                    log.warn("Listening for new events failed ({}); processors fall back to polling. Retrying.",
                            e.getMessage());
                    sleep(backoff);
                    backoff = Math.min(backoff * 2, 5000);
                }
            }
        }
    }

    private void wakeAll() {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.warn("An event listener failed to wake", e);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
