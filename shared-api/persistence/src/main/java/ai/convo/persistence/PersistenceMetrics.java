package ai.convo.persistence;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import java.util.function.ToDoubleFunction;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;

/**
 * What an operator watches of a service's database use and event processing: both connection pools
 * ({@code convo_db_pool_connections{pool,state}}: active, idle, pending, max) and the event-processor segments this
 * replica holds ({@code convo_events_segments_claimed{processor}}). Spring Boot's own pool metrics do not see these
 * pools (they are built here, not by its auto-configuration).
 */
public class PersistenceMetrics implements MeterBinder, ApplicationListener<ApplicationStartedEvent> {

    private final HikariDataSource jdbc;
    private final ConnectionPool r2dbc;
    private final EventProcessingConfiguration processing;
    private volatile MeterRegistry meters;

    public PersistenceMetrics(HikariDataSource jdbc, ConnectionPool r2dbc, EventProcessingConfiguration processing) {
        this.jdbc = jdbc;
        this.r2dbc = r2dbc;
        this.processing = processing;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.meters = registry;
        jdbc(registry, jdbc);
        r2dbc(registry, r2dbc, "r2dbc");
    }

    /** The processors exist once Axon started; each gets its gauge then. */
    @Override
    public void onApplicationEvent(ApplicationStartedEvent started) {
        MeterRegistry registry = meters;
        if (registry == null) {
            return;
        }
        processing.eventProcessors().forEach((name, processor) -> {
            if (processor instanceof StreamingEventProcessor streaming) {
                Gauge.builder("convo.events.segments.claimed", streaming, p -> p.processingStatus().size())
                        .tag("processor", name)
                        .description("Segments of this event processor that this replica holds")
                        .register(registry);
            }
        });
    }

    static void jdbc(MeterRegistry registry, HikariDataSource pool) {
        String name = "jdbc";
        connections(registry, name, "active", pool, p -> bean(p) == null ? 0 : bean(p).getActiveConnections());
        connections(registry, name, "idle", pool, p -> bean(p) == null ? 0 : bean(p).getIdleConnections());
        connections(registry, name, "pending", pool, p -> bean(p) == null ? 0 : bean(p).getThreadsAwaitingConnection());
        connections(registry, name, "max", pool, HikariDataSource::getMaximumPoolSize);
    }

    /** An R2DBC pool's connections; also used for the query side's read-replica pool. */
    public static void r2dbc(MeterRegistry registry, ConnectionPool pool, String name) {
        connections(registry, name, "active", pool, p -> metric(p, PoolMetrics::acquiredSize));
        connections(registry, name, "idle", pool, p -> metric(p, PoolMetrics::idleSize));
        connections(registry, name, "pending", pool, p -> metric(p, PoolMetrics::pendingAcquireSize));
        connections(registry, name, "max", pool, p -> metric(p, PoolMetrics::getMaxAllocatedSize));
    }

    private static <T> void connections(MeterRegistry registry, String pool, String state, T source,
                                        ToDoubleFunction<T> value) {
        Gauge.builder("convo.db.pool.connections", source, value).tag("pool", pool).tag("state", state)
                .description("Database connections of this pool: in use (active), idle, requests waiting for one "
                        + "(pending), the most it opens (max)")
                .register(registry);
    }

    private static HikariPoolMXBean bean(HikariDataSource pool) {
        return pool.isClosed() ? null : pool.getHikariPoolMXBean();
    }

    private static double metric(ConnectionPool pool, ToDoubleFunction<PoolMetrics> value) {
        return pool.getMetrics().map(value::applyAsDouble).orElse(0.0);
    }
}
