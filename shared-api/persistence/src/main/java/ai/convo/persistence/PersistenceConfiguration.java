package ai.convo.persistence;

import ai.convo.persistence.snapshots.AggregateShapes;
import ai.convo.persistence.upcasting.EventUpcasters;
import ai.convo.persistence.upcasting.StoredEvents;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import javax.sql.DataSource;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.flywaydb.core.Flyway;
import reactor.netty.resources.LoopResources;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Both services on one PostgreSQL. Declared by hand: with R2DBC on the classpath Spring Boot makes no JDBC
 * DataSource, and without one Axon silently has no event store.
 */
@Configuration(proxyBeanMethods = false)
@Import({DatabaseSettings.class, AxonSerializers.class, EventUpcasters.class, R2dbcIdentityStore.class,
        RefusedRequests.class, LoginAttempts.class, EventPositions.class})
public class PersistenceConfiguration {

    /** The pool is handed out only after Flyway ran, so nothing (Axon included) sees an old schema. */
    @Bean(destroyMethod = "close")
    @Primary
    public HikariDataSource dataSource(DatabaseSettings settings,
                                       @Value("${app.db.migrations:}") String serviceMigrations,
                                       @Value("${app.db.migrations-table:}") String serviceMigrationsTable) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.username());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.jdbcPoolSize());
        config.setPoolName("jdbc");
        HikariDataSource dataSource = new HikariDataSource(config);
        // One service process migrates at a time. Flyway's own lock lives in its history table, which two processes
        // starting on an empty database both try to create: the second then finds it "already there and empty" and
        // refuses to baseline (a replica of QueryReplicasIT failed to start so).
        try (java.sql.Connection lock = dataSource.getConnection(); java.sql.Statement statement = lock.createStatement()) {
            statement.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
            try {
                migrate(dataSource, "classpath:db/common", "flyway_history_common");
                if (!serviceMigrations.isBlank()) {
                    migrate(dataSource, serviceMigrations, serviceMigrationsTable);
                }
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
            }
        } catch (java.sql.SQLException e) {
            dataSource.close();
            throw new IllegalStateException("Could not take the migration lock: " + e.getMessage(), e);
        }
        return dataSource;
    }

    /** The advisory lock key the services migrate under ("convo-migrate" in short). */
    private static final long MIGRATION_LOCK = 0x636f6e766f6d6967L;

    private static void migrate(DataSource dataSource, String location, String table) {
        // Separate history tables let each service own its tables; Flyway's lock makes concurrent starts safe.
        // Features are built in parallel and each owns its tables, so a lower version that lands after a higher
        // one was applied (e.g. V9 after V15) is applied then rather than refused.
        Flyway.configure()
                .dataSource(dataSource)
                .locations(location)
                .table(table)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .outOfOrder(true)
                .load()
                .migrate();
    }

    /** The readiness check of every service: its database answers (health group readiness: "database"). */
    @Bean
    public DatabaseHealth databaseHealthIndicator(JdbcTemplate jdbc) {
        return new DatabaseHealth(jdbc);
    }

    /** Batches the writes a caller marks as not needing their row count (projections; see BatchingJdbcTemplate). */
    @Bean
    public BatchingJdbcTemplate jdbcTemplate(DataSource dataSource) {
        return new BatchingJdbcTemplate(dataSource, 5_000);
    }

    @Bean
    @Primary
    public PlatformTransactionManager transactionManager(DataSource dataSource) {
        return new DataSourceTransactionManager(dataSource);
    }

    /**
     * The R2DBC driver's own event loops, so database I/O never waits behind HTTP I/O on a shared loop and each
     * application context closes what it opened (by default the driver uses Reactor Netty's global loops).
     * Not colocated: by default a connection opened from one of these loops' threads stays on that thread, and as
     * reads resume on the thread that answered their read-your-writes look-up, every pooled connection ended up on
     * that one loop, which then did the database work of every read while the other idled. An odd number of loops:
     * with two, all ten pooled connections still landed on one of them; with three, all three carry connections
     * (observed on the query service under a list load, not traced into Reactor Netty's choice of loop).
     */
    @Bean(destroyMethod = "dispose")
    public LoopResources r2dbcLoops() {
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors()) | 1;
        return LoopResources.create("r2dbc", 1, threads, true, false);
    }

    @Bean(destroyMethod = "dispose")
    public ConnectionPool connectionFactory(DatabaseSettings settings, DataSource migratedFirst, LoopResources r2dbcLoops) {
        return new ConnectionPool(ConnectionPoolConfiguration.builder(postgres(settings, r2dbcLoops))
                .name("r2dbc")
                .initialSize(1)
                .maxSize(settings.r2dbcPoolSize())
                .maxIdleTime(Duration.ofMinutes(5))
                .build());
    }

    @Bean
    public PersistenceMetrics persistenceMetrics(HikariDataSource dataSource, ConnectionPool connectionFactory,
                                                 EventProcessingConfiguration processing) {
        return new PersistenceMetrics(dataSource, connectionFactory, processing);
    }

    /** Unpooled R2DBC connections to the database, on the driver's own loops. */
    public static PostgresqlConnectionFactory postgres(DatabaseSettings settings, LoopResources loops) {
        return new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
                .loopResources(loops)
                .host(settings.host())
                .port(settings.port())
                .database(settings.database())
                .username(settings.username())
                .password(settings.password() == null || settings.password().isEmpty() ? null : settings.password())
                .build());
    }

    /** The primary; a query service may also read projections from a replica (its @ReadModel client). */
    @Bean
    @Primary
    public DatabaseClient databaseClient(ConnectionFactory connectionFactory) {
        return DatabaseClient.create(connectionFactory);
    }

    // ---- Axon: snake_case tables created by Flyway, and a fast-polling event store.

    @Bean
    public EventSchema eventSchema() {
        return EventSchema.builder()
                .eventTable("domain_event_entry")
                .snapshotTable("snapshot_entry")
                .globalIndexColumn("global_index")
                .timestampColumn("time_stamp")
                .eventIdentifierColumn("event_identifier")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .typeColumn("type")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .build();
    }

    @Bean
    public TokenSchema tokenSchema() {
        return TokenSchema.builder()
                .setTokenTable("token_entry")
                .setProcessorNameColumn("processor_name")
                .setSegmentColumn("segment")
                .setTokenColumn("token")
                .setTokenTypeColumn("token_type")
                .setTimestampColumn("time_stamp")
                .setOwnerColumn("owner")
                .build();
    }

    @Bean
    public TransactionManager axonTransactionManager(PlatformTransactionManager transactionManager) {
        return new SpringTransactionManager(transactionManager);
    }

    @Bean
    public ConnectionProvider axonConnectionProvider(DataSource dataSource) {
        return new SpringDataSourceConnectionProvider(dataSource);
    }

    /**
     * Declared here: Axon's JDBC auto-configuration does not see a DataSource the application declares itself. Its
     * upcaster chain is the one every raw reader of the store uses too ({@link StoredEvents}).
     *
     * <p>Every event a processor has fetched but not yet handled carries a token with a copy of all open gaps (up to
     * 1,024 per segment are buffered), so the gaps a token may keep bound the processors' memory: at Axon's 10,000,
     * a large import beside other writers ran the services out of memory. Only small appends interleave
     * ({@link AppendedPositions#EXCLUSIVE_FROM}), so a committing event lies far less than {@code maxGapOffset} below
     * the newest one; an index further below is taken as never to be filled.
     */
    @Bean
    public EventStorageEngine eventStorageEngine(@Qualifier("snapshotSerializer") Serializer snapshotSerializer,
                                                 @Qualifier("eventSerializer") Serializer eventSerializer,
                                                 ConnectionProvider connectionProvider,
                                                 TransactionManager axonTransactionManager,
                                                 EventSchema eventSchema,
                                                 StoredEvents storedEvents,
                                                 @Value("${app.events.max-gap-offset:2000}") int maxGapOffset) {
        return JdbcEventStorageEngine.builder()
                .snapshotSerializer(snapshotSerializer)
                .snapshotFilter(AggregateShapes.filter(PersistenceConfiguration.class.getClassLoader()))
                .eventSerializer(eventSerializer)
                .upcasterChain(storedEvents.chain())
                .persistenceExceptionResolver(new UniqueViolations())
                .connectionProvider(connectionProvider)
                .transactionManager(axonTransactionManager)
                .schema(eventSchema)
                .appendEvents(AppendedPositions::appendEvents)
                .maxGapOffset(maxGapOffset)
                .build();
    }

    /**
     * A replica that dies holds its segments until the claim times out; reads of writes those segments have not
     * projected wait that long (or answer 503 past READ_YOUR_WRITES_MAX_WAIT), so the timeout is short. Holders
     * extend their claims every 500 ms, so 2 s is four missed extensions (a claim taken from a live but stalled holder
     * costs nothing: its next token update fails and it lets go; FencedTokenStore makes sure of that).
     */
    @Bean
    public TokenStore tokenStore(@Qualifier("serializer") Serializer serializer, ConnectionProvider connectionProvider,
                                 TokenSchema tokenSchema,
                                 @Value("${app.events.claim-timeout:2s}") java.time.Duration claimTimeout) {
        return new FencedTokenStore(JdbcTokenStore.builder()
                .connectionProvider(connectionProvider)
                .serializer(serializer)
                .claimTimeout(claimTimeout), java.lang.management.ManagementFactory.getRuntimeMXBean().getName(),
                tokenSchema);
    }

    /**
     * Axon polls every second by default; a separate query service would then lag by up to a second. It also
     * keeps the newest 10,000 events in memory whatever their size: batch events of call records would fill
     * the heap, so the cache is capped. Nor does a local commit make it fetch at once ({@link PolledEventStore}).
     */
    @Bean
    public EmbeddedEventStore eventStore(EventStorageEngine storageEngine, EventWakeups wakeups,
                                         @Value("${app.events.fetch-delay-ms:20}") long fetchDelay,
                                         @Value("${app.events.cached:256}") int cachedEvents) {
        EmbeddedEventStore store = new PolledEventStore(EmbeddedEventStore.builder()
                .storageEngine(storageEngine)
                .fetchDelay(fetchDelay)
                .cleanupDelay(10_000)
                .cachedEvents(cachedEvents));
        store.registerDispatchInterceptor(wakeups);
        return store;
    }

    /** Wakes every service's processors once appended events committed (LISTEN domain_events). */
    @Bean
    public EventWakeups eventWakeups(DatabaseSettings settings,
                                     @Value("${app.events.wakeup-interval:5ms}") java.time.Duration interval) {
        return new EventWakeups(settings, interval);
    }

    /**
     * Streaming processors everywhere, and a failing handler fails its batch (retried) instead of the
     * default of logging and skipping the event, which would silently lose data.
     */
    @Bean
    public EventNotifications eventNotifications(DatabaseSettings settings) {
        return new EventNotifications(settings);
    }

    /** After a projection batch failed, events are applied one by one for this long (dead letters, issue 37). */
    @Bean
    public CarefulProjections carefulProjections(@Value("${app.events.careful-for:30s}") java.time.Duration window) {
        return new CarefulProjections(window);
    }

    @Bean
    public ConfigurerModule processingDefaults(@Value("${app.events.segments:2}") int segments,
                                               @Value("${app.events.batch-size:100}") int batchSize,
                                               EventNotifications notifications,
                                               TransactionManager axonTransactionManager, DataSource dataSource,
                                               CarefulProjections careful) {
        TransactionManager projectionTransactions = new ProjectionTransactions(axonTransactionManager, dataSource,
                careful);
        return configurer -> configurer.eventProcessing(processing -> processing
                .usingPooledStreamingEventProcessors((config, builder) -> builder
                        .messageSource(new NotifiedEventSource(config.eventStore(), notifications))
                        .transactionManager(projectionTransactions)
                        .initialSegmentCount(segments)
                        .batchSize(batchSize)
                        .claimExtensionThreshold(500)
                        .tokenClaimInterval(1000))
                .registerDefaultListenerInvocationErrorHandler(config -> PropagatingErrorHandler.instance()));
    }
}
