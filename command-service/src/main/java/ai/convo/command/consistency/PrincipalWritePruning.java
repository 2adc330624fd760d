package ai.convo.command.consistency;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Only a principal's newest recorded write matters to its reads; older rows of {@code principal_write} are deleted
 * now and then. Every command replica does it; the deletes are idempotent.
 */
@Component
public class PrincipalWritePruning implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PrincipalWritePruning.class);

    private final JdbcTemplate jdbc;
    private final Duration interval;
    private ScheduledExecutorService timer;

    PrincipalWritePruning(JdbcTemplate jdbc, @Value("${app.consistency.prune-interval:60s}") Duration interval) {
        this.jdbc = jdbc;
        this.interval = interval;
    }

    public int prune() {
        return jdbc.update("DELETE FROM principal_write w USING (SELECT principal_key, max(position) AS newest "
                + "FROM principal_write GROUP BY principal_key) n "
                + "WHERE w.principal_key = n.principal_key AND w.position < n.newest");
    }

    @Override
    public synchronized void start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "principal-write-pruning");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                prune();
            } catch (RuntimeException e) {
                log.warn("Pruning superseded principal writes failed; retried next time: {}", e.toString());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return timer != null;
    }
}
