package ai.convo.query.consistency;

import ai.convo.persistence.Periodic;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.stereotype.Component;

/**
 * A query replica's readiness (health group {@code readiness}: "projections") and its projection lag: the newest
 * event in the log against what every projection of this replica has processed (ProjectionProgress). Ready while the
 * lag is at most {@code APP_READINESS_MAXLAG} events (100). Measured every second, per processor, as metrics:
 * {@code convo_projections_lag_events{processor}} (events of the log it has not processed) and
 * {@code convo_projections_lag_age_seconds{processor}} (how long ago the oldest of them was appended; 0 when none).
 */
@Component("projectionsHealthIndicator")
class ProjectionsHealth extends Periodic implements HealthIndicator {

    private final ProjectionProgress progress;
    private final JdbcTemplate jdbc;
    private final long maxLag;
    private final MeterRegistry meters;
    private final AtomicLong head = new AtomicLong(-1);
    /** Up to where every event is projected, but gaps found empty at the last measure. */
    private volatile long projectedUpTo;
    /** Per processor: {events behind, milliseconds since the oldest unprocessed event was appended}. */
    private final Map<String, long[]> lags = new ConcurrentHashMap<>();

    public ProjectionsHealth(ProjectionProgress progress, JdbcTemplate jdbc, MeterRegistry meters,
                             @Value("${app.readiness.max-lag:100}") long maxLag) {
        super("projection-lag", Duration.ofSeconds(1));
        this.progress = progress;
        this.jdbc = jdbc;
        this.maxLag = maxLag;
        this.meters = meters;
    }

    /** The log's head, and (asking whether it is reached) what every projection has processed, every second. */
    @Override
    protected void runOnce() {
        Long newest = jdbc.queryForObject("SELECT coalesce(max(global_index), 0) FROM domain_event_entry", Long.class);
        head.set(newest == null ? 0 : newest);
        progress.reached(head.get()).block(Duration.ofSeconds(5));
        // A gap no event fills stays in the tokens for 10,000 events: counted as lag, one rolled-back append would
        // take every replica out of service 100 events later, until those 10,000 had passed.
        CheckedGaps gaps = progress.checkGaps().block(Duration.ofSeconds(5));
        Set<Long> absent = gaps == null ? Set.of() : gaps.absent();
        projectedUpTo = gaps == null ? 0 : gaps.projectedUpTo();
        Map<String, Long> positions = progress.positions(absent).block(Duration.ofSeconds(5));
        if (positions != null && !positions.isEmpty()) {
            measure(positions, head.get());
        }
    }

    /** Each processor's lag, in events and in the age of the oldest event it has yet to process (one query). */
    private void measure(Map<String, Long> positions, long newest) {
        Long[] distinct = positions.values().stream().distinct().toArray(Long[]::new);
        Map<Long, Long> appended = new HashMap<>();
        jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement("SELECT p.pos, (SELECT e.time_stamp "
                    + "FROM domain_event_entry e WHERE e.global_index > p.pos ORDER BY e.global_index LIMIT 1) "
                    + "FROM unnest(?) AS p(pos)");
            statement.setArray(1, connection.createArrayOf("bigint", distinct));
            return statement;
        }, (RowCallbackHandler) row -> {
            String stamp = row.getString(2);
            if (stamp != null) {
                appended.put(row.getLong(1), Instant.parse(stamp).toEpochMilli());
            }
        });
        long now = System.currentTimeMillis();
        positions.forEach((processor, position) -> {
            long[] lag = lags.computeIfAbsent(processor, this::register);
            lag[0] = Math.max(0, newest - position);
            Long oldest = appended.get(position);
            lag[1] = oldest == null ? 0 : Math.max(0, now - oldest);
        });
    }

    private long[] register(String processor) {
        long[] lag = new long[2];
        Gauge.builder("convo.projections.lag", lag, l -> l[0]).baseUnit("events").tag("processor", processor)
                .description("Events in the log this processor has not processed yet (all its segments, any replica)")
                .register(meters);
        TimeGauge.builder("convo.projections.lag.age", lag, TimeUnit.MILLISECONDS, l -> l[1]).tag("processor", processor)
                .description("How long ago the oldest event this processor has yet to process was appended")
                .register(meters);
        return lag;
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
        return newest < 0 ? 0 : Math.max(0, newest - Math.max(progress.safe(), projectedUpTo));
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
