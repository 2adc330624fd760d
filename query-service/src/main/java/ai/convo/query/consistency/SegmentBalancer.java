package ai.convo.query.consistency;

import ai.convo.persistence.Periodic;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Spreads projection work over the query replicas that run. Axon lets the first replica claim every segment and
 * never moves one while its holder lives; so each replica says it is alive ({@code query_replica}, V18) and, holding
 * more than its share (segments / live replicas, rounded up) of a processor, releases the rest for a while, for the
 * others to claim. A replica that stops saying it is alive drops out of the count after two intervals (2 s, as
 * long as a claim lives: APP_EVENTS_CLAIM_TIMEOUT), so the survivors' share then covers its segments, which they
 * claim as its claims time out.
 */
@Component
class SegmentBalancer extends Periodic {

    private final EventProcessingConfiguration processing;
    private final JdbcTemplate jdbc;
    private final Duration interval;
    private final String replica = ManagementFactory.getRuntimeMXBean().getName();
    /** The live replicas counted by the last run; none yet: unknown, so taken as more than one. */
    private volatile int live;

    SegmentBalancer(EventProcessingConfiguration processing, JdbcTemplate jdbc,
                    @Value("${app.events.balance-interval:1s}") Duration interval) {
        super("segment-balancer", interval);
        this.processing = processing;
        this.jdbc = jdbc;
        this.interval = interval;
    }

    /** Says this replica is alive and releases what it holds beyond its share; answers how many it released. */
    public int balance() {
        jdbc.update("INSERT INTO query_replica (replica, seen_at) VALUES (?, now()) "
                + "ON CONFLICT (replica) DO UPDATE SET seen_at = now()", replica);
        Integer live = jdbc.queryForObject("SELECT count(*) FROM query_replica "
                + "WHERE seen_at > now() - make_interval(secs => ?)", Integer.class, 2.0 * interval.toMillis() / 1000);
        int replicas = Math.max(1, live == null ? 1 : live);
        this.live = replicas;
        Map<String, Integer> segmentsOf = new HashMap<>();
        jdbc.query("SELECT processor_name, count(*) FROM token_entry GROUP BY processor_name",
                rows -> { segmentsOf.put(rows.getString(1), rows.getInt(2)); });
        int released = 0;
        for (var candidate : processing.eventProcessors().values()) {
            if (!(candidate instanceof PooledStreamingEventProcessor processor)) {
                continue;
            }
            int share = (int) Math.ceil(segmentsOf.getOrDefault(processor.getName(), 0) / (double) replicas);
            List<Integer> held = new ArrayList<>(processor.processingStatus().keySet());
            for (int i = share; i < held.size(); i++) {
                // long enough for another replica to claim it (they look every second), then free to take again
                processor.releaseSegment(held.get(i), 2 * interval.toMillis(), TimeUnit.MILLISECONDS);
                released++;
            }
        }
        return released;
    }

    /** Whether the last run counted this replica as the only live one (before the first run: no). */
    public boolean alone() {
        return live == 1;
    }

    @Override
    protected void runOnce() {
        balance();
    }

    @Override
    public void stop() {
        super.stop();
        try {
            // leaving: no longer counted, so the others take a full share at once
            jdbc.update("DELETE FROM query_replica WHERE replica = ?", replica);
        } catch (RuntimeException e) {
            // the database is gone too: the row ages out after three intervals
        }
    }
}
