package ai.convo.persistence;

import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Listens for PostgreSQL's NOTIFY: on new events (a statement trigger on domain_event_entry raises it), which
 * wakes whoever registered, and on changes that invalidate caches ({@link #IDENTITY_CHANGES},
 * {@link #READ_MODEL_CHANGES}). NOTIFY is delivered only after the writing transaction commits, so a reader
 * woken by it always finds the new rows.
 */
public final class EventNotifications implements SmartLifecycle, ChangeNotifications {

    static final String CHANNEL = "domain_events";
    /** Raised by triggers on the identity tables (payload: the changed key's hash, or empty for users). */
    public static final String IDENTITY_CHANGES = "identity_changes";
    /** Raised by triggers on read models (payload: {@code flow:<id>}, {@code locales}, ...). */
    public static final String READ_MODEL_CHANGES = "read_model_changes";
    private static final Logger log = LoggerFactory.getLogger(EventNotifications.class);

    /**
     * Told of every change notification, and of each start and loss of listening: while not listening,
     * changes go unnoticed, so a cache must not serve (and must forget what it held once listening again).
     */
    public interface ChangeListener {
        void changed(String channel, String payload);

        void listening(boolean listening);
    }

    private final DatabaseSettings settings;
    private final Set<Runnable> listeners = ConcurrentHashMap.newKeySet();
    private final Set<ChangeListener> changeListeners = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private volatile boolean listening;
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
    public void subscribe(ChangeListener listener) {
        changeListeners.add(listener);
    }

    /** Whether change notifications are being received right now. */
    @Override
    public boolean listening() {
        return listening;
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
        listeningChanged(false);
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void listen() {
        DedicatedConnection.keep(settings, () -> running, connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + CHANNEL + "; LISTEN " + IDENTITY_CHANGES + "; LISTEN " + READ_MODEL_CHANGES);
            }
            listeningChanged(true);
            // Anything appended while we were not listening: wake everyone once.
            wakeAll();
            PGConnection pg = connection.unwrap(PGConnection.class);
            while (running) {
                PGNotification[] notifications = pg.getNotifications(1000);
                if (notifications != null && notifications.length > 0) {
                    dispatch(notifications);
                }
            }
        }, e -> {
            listeningChanged(false);
            log.warn("Listening for new events failed ({}); processors fall back to polling. Retrying.", e.getMessage());
        });
    }

    private void dispatch(PGNotification[] notifications) {
        boolean events = false;
        for (PGNotification notification : notifications) {
            if (notification.getName().equals(CHANNEL)) {
                events = true;
                continue;
            }
            for (ChangeListener listener : changeListeners) {
                try {
                    listener.changed(notification.getName(), notification.getParameter());
                } catch (RuntimeException e) {
                    log.warn("A change listener failed", e);
                }
            }
        }
        if (events) {
            wakeAll();
        }
    }

    private void listeningChanged(boolean now) {
        listening = now;
        for (ChangeListener listener : changeListeners) {
            try {
                listener.listening(now);
            } catch (RuntimeException e) {
                log.warn("A change listener failed", e);
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
}
