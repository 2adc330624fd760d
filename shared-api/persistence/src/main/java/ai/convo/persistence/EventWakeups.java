package ai.convo.persistence;

import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.MessageDispatchInterceptor;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Tells the listening services (LISTEN {@code domain_events}, {@link EventNotifications}) that events were committed,
 * after the commit and from a connection of its own. A NOTIFY inside the appending transaction would hold
 * PostgreSQL's one notification lock from just before that commit until after its WAL flush, so appends would
 * queue behind each other's flushes (V8__wake_processors_after_commit.sql says what that cost).
 *
 * <p>Wake-ups coalesce: after one NOTIFY, the next goes out no sooner than {@code interval} later, and any number of
 * commits meanwhile share it. So a quiet system wakes its processors at once, and a busy one hands them a batch at
 * most every {@code interval}: woken for every commit, each processor (there are a dozen) projected one or two events
 * per transaction and stored its token each time, and the query side spent more per command than the command side.
 * The connection commits asynchronously (a notification carries no data, so there is nothing to flush for). A
 * wake-up that never arrives (no connection, or the process dying between its commit and the NOTIFY) costs latency
 * only: the stream finds the events anyway on its next check.
 */
public final class EventWakeups implements SmartLifecycle, MessageDispatchInterceptor<EventMessage<?>> {

    private static final Logger log = LoggerFactory.getLogger(EventWakeups.class);
    private static final String RAISED = EventWakeups.class.getName() + ".raised";

    private final DatabaseSettings settings;
    private final long intervalMillis;
    private final Object monitor = new Object();
    private final AtomicLong sent = new AtomicLong();
    private boolean pending;
    private volatile boolean running;
    private Thread thread;

    public EventWakeups(DatabaseSettings settings, Duration interval) {
        this.settings = settings;
        this.intervalMillis = interval.toMillis();
    }

    /** Events of this unit of work wake the listeners once it committed; outside one, at once. */
    @Override
    public BiFunction<Integer, EventMessage<?>, EventMessage<?>> handle(List<? extends EventMessage<?>> messages) {
        if (CurrentUnitOfWork.isStarted()) {
            UnitOfWork<?> root = CurrentUnitOfWork.get().root();
            root.getOrComputeResource(RAISED, key -> {
                root.afterCommit(unitOfWork -> raise());
                return Boolean.TRUE;
            });
        } else {
            raise();
        }
        return (index, message) -> message;
    }

    /** Asks for one NOTIFY after this call (it may share one with other callers). */
    public void raise() {
        synchronized (monitor) {
            pending = true;
            monitor.notifyAll();
        }
    }

    /** How many NOTIFYs went out: at most one per raise, usually far fewer under load. */
    public long sent() {
        return sent.get();
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::send, "event-wakeups");
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

    private void send() {
        DedicatedConnection.keep(settings, () -> running, connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET synchronous_commit = off");
                while (running) {
                    awaitRaised();
                    statement.execute("SELECT pg_notify('" + EventNotifications.CHANNEL + "', '')");
                    sent.incrementAndGet();
                    if (intervalMillis > 0) {
                        Thread.sleep(intervalMillis);
                    }
                }
            }
        }, e -> log.warn("Could not wake the event listeners ({}); they fall back to polling. Retrying.", e.getMessage()));
    }

    private void awaitRaised() throws InterruptedException {
        synchronized (monitor) {
            while (!pending) {
                monitor.wait();
            }
            pending = false;
        }
    }
}
