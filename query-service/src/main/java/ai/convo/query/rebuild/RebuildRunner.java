package ai.convo.query.rebuild;

import ai.convo.persistence.EventNotifications;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Runs requested rebuilds, one at a time over all query replicas: claims the oldest open request with a lease, renews
 * the lease while the rebuild runs, and gives it back when this replica stops. A replica that dies stops renewing;
 * after the lease another one (or this one, restarted) claims the rebuild and resumes it from its committed progress.
 */
@Component
public class RebuildRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RebuildRunner.class);

    private static final String CLAIM = "UPDATE projection_rebuild r SET runner = ?, "
            + "lease_until = now() + ? * interval '1 millisecond' WHERE r.id = (SELECT h.id FROM projection_rebuild h "
            + "WHERE h.status IN ('requested', 'running') AND (h.lease_until IS NULL OR h.lease_until < now()) "
            + "AND NOT EXISTS (SELECT 1 FROM projection_rebuild o WHERE o.status IN ('requested', 'running') "
            + "  AND o.requested_at < h.requested_at) "
            + "ORDER BY h.requested_at LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING r.id";

    /** The payload prefix of a request's notification on the read-model channel. */
    private static final String REQUESTED = "rebuild:";

    private final JdbcTemplate jdbc;
    private final Rebuilder rebuilder;
    private final long leaseMillis;
    private final long pollMillis;
    private final String runnerId = ManagementFactory.getRuntimeMXBean().getName() + "/rebuild/"
            + Long.toHexString(System.nanoTime());
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicLong heard = new AtomicLong();
    private ScheduledExecutorService timer;
    private volatile boolean running;
    private volatile String current;
    private volatile boolean leaseLost;

    public RebuildRunner(JdbcTemplate jdbc, Rebuilder rebuilder,
                         @Value("${app.rebuild.lease:10s}") Duration lease,
                         @Value("${app.rebuild.poll:1s}") Duration poll,
                         ObjectProvider<EventNotifications> notifications) {
        this.jdbc = jdbc;
        this.rebuilder = rebuilder;
        this.leaseMillis = lease.toMillis();
        this.pollMillis = poll.toMillis();
        // A request's notification (common V19) starts it at once; the poll is the fallback.
        notifications.ifAvailable(channel -> channel.subscribe(new EventNotifications.ChangeListener() {
            @Override
            public void changed(String name, String payload) {
                if (payload != null && payload.startsWith(REQUESTED)) {
                    heard.incrementAndGet();
                    wake();
                }
            }

            @Override
            public void listening(boolean listening) {
                // the poll covers what a lost connection missed
            }
        }));
    }

    @Override
    public void start() {
        running = true;
        timer = Executors.newScheduledThreadPool(2, task -> {
            Thread thread = new Thread(task, "projection-rebuild");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::poll, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::renew, leaseMillis / 4, leaseMillis / 4, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        running = false;
        if (timer != null) {
            timer.shutdown();
            try {
                timer.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            jdbc.update("UPDATE projection_rebuild SET lease_until = now() WHERE runner = ? "
                    + "AND status IN ('requested', 'running')", runnerId);
        } catch (RuntimeException e) {
            log.debug("Could not give back rebuild leases: {}", e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the processors stop (they stop in phase 0 and below): a run ends its batch first. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }

    /** How many requests' notifications this runner heard (each woke it). */
    public long requestsHeard() {
        return heard.get();
    }

    /** Wakes the runner now (a rebuild was requested). */
    public void wake() {
        if (running) {
            timer.execute(this::poll);
        }
    }

    private void poll() {
        if (!running || !busy.compareAndSet(false, true)) {
            return;
        }
        try {
            List<String> claimed;
            while (running && !(claimed = jdbc.queryForList(CLAIM, String.class, runnerId, leaseMillis)).isEmpty()) {
                String id = claimed.get(0);
                current = id;
                leaseLost = false;
                try {
                    rebuilder.run(id, runnerId, () -> running && !leaseLost);
                } catch (RuntimeException e) {
                    log.warn("Rebuild {} failed", id, e);
                    jdbc.update("UPDATE projection_rebuild SET status = 'failed', finished_at = now(), fail_reason = ?, "
                            + "runner = NULL, lease_until = NULL WHERE id = ? AND runner = ? AND status IN "
                            + "('requested', 'running')", "The rebuild stopped on an unexpected error; the query "
                            + "service's log has the details under rebuild " + id + ". The live tables were kept.",
                            id, runnerId);
                    ShadowTables.drop(jdbc, ShadowTables.schemaOf(id));
                } finally {
                    current = null;
                }
            }
        } catch (RuntimeException e) {
            log.warn("Rebuild runner poll failed: {}", e.toString());
        } finally {
            busy.set(false);
        }
    }

    private void renew() {
        String id = current;
        if (id == null) {
            return;
        }
        try {
            if (jdbc.update("UPDATE projection_rebuild SET lease_until = now() + ? * interval '1 millisecond' "
                    + "WHERE id = ? AND runner = ? AND status IN ('requested', 'running')", leaseMillis, id, runnerId) == 0) {
                leaseLost = true;
            }
        } catch (RuntimeException e) {
            log.debug("Could not renew the lease of rebuild {}: {}", id, e.toString());
        }
    }
}
