package ai.convo.command.eventsourcing;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.caching.Cache;
import org.axonframework.common.caching.NoCache;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.Configuration;
import org.axonframework.eventsourcing.EventCountSnapshotTriggerDefinition;
import org.axonframework.eventsourcing.SnapshotTriggerDefinition;
import org.axonframework.eventsourcing.Snapshotter;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.annotation.HandlerDefinition;
import org.axonframework.messaging.annotation.ParameterResolverFactory;
import org.axonframework.serialization.Serializer;
import org.axonframework.spring.eventsourcing.SpringAggregateSnapshotter;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/**
 * What keeps a command's cost independent of its aggregate's history: aggregates stay cached between commands
 * ({@link FreshAggregateCache}), and every {@code app.aggregates.snapshot-threshold} events a snapshot is stored
 * ({@link VerifiedSnapshotter}), so a load (after a restart, on another replica, after eviction) reads a snapshot and
 * fewer events than that. Both are caches of the event log: dropping either changes no answer. Aggregates opt in
 * with {@code @Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots",
 * lockFactory = "aggregateLocks")} (the locks: {@link ReleasedAggregateLocks}).
 */
@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
class AggregateCaching {

    @Bean
    public Cache aggregateCache(@Lazy EventStore eventStore, @Value("${app.aggregates.cached:10000}") int capacity) {
        return capacity <= 0 ? NoCache.INSTANCE : new FreshAggregateCache(eventStore, capacity);
    }

    /** Checks a cached aggregate a command appended nothing to when the command ends (and none it appended to). */
    @Bean
    public CachedDecisions cachedDecisions(EventStore eventStore, @Qualifier("aggregateCache") Cache aggregateCache) {
        return new CachedDecisions(eventStore, aggregateCache);
    }

    /** Every aggregate's locks: Axon's, released when their unit of work ends even where Axon leaks them. */
    @Bean
    public ReleasedAggregateLocks aggregateLocks() {
        return new ReleasedAggregateLocks();
    }

    @Bean
    public SnapshotTriggerDefinition aggregateSnapshots(Snapshotter snapshotter,
                                                        @Value("${app.aggregates.snapshot-threshold:100}") int threshold) {
        return new EventCountSnapshotTriggerDefinition(snapshotter, threshold);
    }

    /**
     * Snapshots are taken after the command committed, on a thread of their own, so the command that crossed the
     * threshold does not wait for it. A full queue drops the request: the next command past the threshold asks again.
     */
    @Bean(destroyMethod = "")
    public VerifiedSnapshotter aggregateSnapshotter(Configuration configuration, HandlerDefinition handlerDefinition,
                                                    ParameterResolverFactory parameterResolverFactory,
                                                    @Lazy EventStore eventStore, TransactionManager transactionManager,
                                                    @Qualifier("snapshotSerializer") Serializer snapshotSerializer) {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1_000),
                runnable -> {
                    Thread thread = new Thread(runnable, "aggregate-snapshots");
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.DiscardPolicy());
        SpringAggregateSnapshotter.Builder builder = SpringAggregateSnapshotter.builder()
                .repositoryProvider(configuration::repository)
                .transactionManager(transactionManager)
                .eventStore(eventStore)
                .parameterResolverFactory(parameterResolverFactory)
                .handlerDefinition(handlerDefinition)
                .executor(executor);
        return new VerifiedSnapshotter(builder, snapshotSerializer);
    }
}
