package ai.convo.query.consistency;

import ai.convo.persistence.Periodic;
import ai.convo.query.readmodel.ReadModelDatabase;
import java.lang.management.ManagementFactory;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Publishes the progress of the segments this replica holds to {@code segment_progress} (V17) while it moves, so
 * a read on another replica that must wait for a position sees an idle segment's progress within one interval
 * instead of the next claim extension. The write is not made durable (synchronous_commit off): a lost row only
 * means waiting for the stored token. A failed run leaves reads to the stored tokens until the next one.
 * <p>
 * Nobody reads it while this is the only live replica and reads the primary itself (it holds every segment then,
 * and its reads look at them in memory), so it is not written then: under load that was a transaction of upserts
 * every interval. A replica that starts is counted within a balancer interval (1 s) of its first run; until then
 * its reads wait for stored tokens, which are further than nothing published (the two are compared).
 */
@Component
public class SegmentProgressPublisher extends Periodic {

    private final EventProcessingConfiguration processing;
    private final DataSource dataSource;
    private final String replica = ManagementFactory.getRuntimeMXBean().getName();
    private final Map<String, ProjectionProgress.Covered> published = new HashMap<>();
    private final SegmentBalancer replicas;
    private final boolean readsReplica;

    SegmentProgressPublisher(EventProcessingConfiguration processing, DataSource dataSource, SegmentBalancer replicas,
                             ReadModelDatabase readModel,
                             @Value("${app.consistency.progress-interval:10ms}") Duration interval) {
        super("segment-progress", interval);
        this.processing = processing;
        this.dataSource = dataSource;
        this.replicas = replicas;
        // a process that reads a standby learns its own progress from the standby's copy of what it published
        this.readsReplica = readModel.replica();
    }

    /** Writes what moved since the last time; answers how many segments that was. */
    public synchronized int publish() throws Exception {
        record Row(String processor, int segment, ProjectionProgress.Covered covered) {
        }
        List<Row> moved = new ArrayList<>();
        for (var processor : processing.eventProcessors().values()) {
            if (!(processor instanceof PooledStreamingEventProcessor pooled)) {
                continue;
            }
            for (EventTrackerStatus status : pooled.processingStatus().values()) {
                ProjectionProgress.Covered covered = ProjectionProgress.covered(status);
                String key = pooled.getName() + "/" + status.getSegment().getSegmentId();
                if (covered.index() >= 0 && !covered.equals(published.get(key))) {
                    moved.add(new Row(pooled.getName(), status.getSegment().getSegmentId(), covered));
                }
            }
        }
        if (moved.isEmpty()) {
            return 0;
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement durability = connection.prepareStatement("SET LOCAL synchronous_commit = off");
                 PreparedStatement upsert = connection.prepareStatement("INSERT INTO segment_progress "
                         + "(processor_name, segment, idx, gaps, replica, updated_at) VALUES (?, ?, ?, ?, ?, now()) "
                         + "ON CONFLICT (processor_name, segment) DO UPDATE SET idx = EXCLUDED.idx, "
                         + "gaps = EXCLUDED.gaps, replica = EXCLUDED.replica, updated_at = now()")) {
                durability.execute();
                for (Row row : moved) {
                    Array gaps = connection.createArrayOf("bigint", row.covered().gaps().toArray());
                    upsert.setString(1, row.processor());
                    upsert.setInt(2, row.segment());
                    upsert.setLong(3, row.covered().index());
                    upsert.setArray(4, gaps);
                    upsert.setString(5, replica);
                    upsert.addBatch();
                }
                upsert.executeBatch();
                connection.commit();
            } catch (Exception e) {
                connection.rollback();
                throw e;
            }
        }
        moved.forEach(row -> published.put(row.processor() + "/" + row.segment(), row.covered()));
        return moved.size();
    }

    @Override
    protected void runOnce() throws Exception {
        if (readsReplica || !replicas.alone()) {
            publish();
        }
    }
}
