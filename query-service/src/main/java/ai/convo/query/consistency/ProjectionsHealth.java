package ai.convo.query.consistency;

import ai.convo.persistence.Periodic;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A query replica's readiness (health group {@code readiness}: "projections") and its projection lag: the newest
 * event in the log against what every projection of this replica has processed (ProjectionProgress). Ready while the
 * lag is at most {@code APP_READINESS_MAXLAG} events (100); the metric {@code convo_projections_lag_events} is that
 * lag, refreshed every second.
 */
@Component("projectionsHealthIndicator")
public class ProjectionsHealth extends Periodic implements HealthIndicator {

    private final ProjectionProgress progress;
    private final JdbcTemplate jdbc;
    private final long maxLag;
    private final AtomicLong head = new AtomicLong(-1);

    public ProjectionsHealth(ProjectionProgress progress, JdbcTemplate jdbc, MeterRegistry meters,
                             @Value("${app.readiness.max-lag:100}") long maxLag) {
        super("projection-lag", Duration.ofSeconds(1));
        this.progress = progress;
        this.jdbc = jdbc;
        this.maxLag = maxLag;
        Gauge.builder("convo.projections.lag", this, ProjectionsHealth::lag).baseUnit("events")
                .description("Events in the log this replica's projections have not all processed yet")
                .register(meters);
    }

    /** The log's head, and (asking whether it is reached) what every projection has processed, every second. */
    @Override
    protected void runOnce() {
        Long newest = jdbc.queryForObject("SELECT coalesce(max(global_index), 0) FROM domain_event_entry", Long.class);
        head.set(newest == null ? 0 : newest);
        progress.reached(head.get()).block(Duration.ofSeconds(5));
    }

    /** Measured once before the first probe can ask, then every second. */
    @Override
    public synchronized void start() {
        try {
            runOnce();
        } catch (RuntimeException notYet) {
            // measured again in a second; until then readiness says so
        }
        super.start();
    }

    long lag() {
        long newest = head.get();
        return newest < 0 ? 0 : Math.max(0, newest - progress.safe());
    }

    @Override
    public Health health() {
        if (head.get() < 0) {
            return Health.outOfService().withDetail("lagEvents", "not measured yet").build();
        }
        long lag = lag();
        return (lag <= maxLag ? Health.up() : Health.outOfService()).withDetail("lagEvents", lag)
                .withDetail("maxLagEvents", maxLag).build();
    }
}
