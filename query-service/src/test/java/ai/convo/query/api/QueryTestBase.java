package ai.convo.query.api;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.http.security.Secrets;
import ai.convo.query.QueryServiceApplication;
import ai.convo.testing.HangWatch;
import ai.convo.testing.ServiceProperties;
import ai.convo.testing.TestDatabase;
import io.r2dbc.pool.ConnectionPool;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The query service on a random port with its real processors. Tests append events to the real event store,
 * exactly as the command service would, and read with X-Event-Position so they see their own writes.
 */
@SpringBootTest(classes = QueryServiceApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("integration")
public abstract class QueryTestBase {

    static final TestDatabase.Settings DB = TestDatabase.newDatabase();
    /** Event-log streams an organisation may have open (EventLogBulkheadTest opens more than the pool's 10). */
    static final int STREAMS_PER_ORGANISATION = 16;
    /** How long a stream waits for a client that reads nothing (production: 60 s). */
    static final Duration STALL_TIMEOUT = Duration.ofSeconds(15);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceProperties.of(DB, registry::add);
        // A lock a test can see before it ends, however slow the machine (production: 1 s, doubling).
        registry.add("app.security.login.lock-unit", () -> "60s");
        // Small rebuild batches and a close switch point: a rebuild here takes several batches and passes.
        registry.add("app.rebuild.batch-size", () -> "50");
        registry.add("app.rebuild.switch-within", () -> "20");
        // The catch-up of far-behind projections would look first an hour after the start; LiveCatchUpTest asks it.
        registry.add("app.catch-up.poll", () -> "1h");
        registry.add("app.eventlog.streams-per-organisation", () -> STREAMS_PER_ORGANISATION);
        registry.add("app.eventlog.stall-timeout", () -> STALL_TIMEOUT.toString());
    }

    private static final Map<String, AtomicLong> SEQUENCES = new ConcurrentHashMap<>();

    @Autowired
    Environment environment;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    EventStore eventStore;

    WebTestClient http;

    @BeforeEach
    void client() {
        http = WebTestClient.bindToServer()
                .baseUrl("http://localhost:" + environment.getProperty("local.server.port") + "/new")
                .responseTimeout(Duration.ofSeconds(30))
                .filter(HangWatch.reportUnanswered(() -> HangWatch.databaseState(pool, dataSource)))
                .build();
    }

    @Autowired
    ConnectionPool pool;
    @Autowired
    DataSource dataSource;

    /** A user with an API key, as the command service's identity lookup would have stored them. */
    public record Caller(String organisationId, String userId, String apiKey) {
    }

    Caller newOrganisation() {
        String org = Ids.newId();
        String user = Ids.newId();
        String key = Secrets.newApiKey();
        jdbc.update("INSERT INTO identity_organisation (id, name, created_at) VALUES (?, ?, 0)", org, "Org " + org);
        jdbc.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at) "
                + "VALUES (?, ?, ?, ?, 'ORG_ADMIN', 0)", user, org, user + "@example.com", Secrets.PASSWORDS.encode("pw-" + user));
        jdbc.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at) "
                + "VALUES (?, ?, ?, 'test', ?, 0)", Ids.newId(), user, org, Secrets.hashApiKey(key));
        return new Caller(org, user, key);
    }

    @Autowired
    org.springframework.transaction.PlatformTransactionManager transactions;

    /**
     * Appends what {@code writes} appends as the command service does for a request of {@code caller}: in one
     * transaction recorded under the caller's user id (principal_write), so the caller's reads wait for it.
     */
    <T> T as(Caller caller, java.util.function.Supplier<T> writes) {
        return new org.springframework.transaction.support.TransactionTemplate(transactions).execute(status -> {
            jdbc.queryForObject("SELECT set_config('app.principal', ?, true)", String.class, caller.userId());
            return writes.get();
        });
    }

    /** A second user of the caller's organisation, with a key of its own. */
    Caller colleague(Caller caller) {
        return colleague(caller, "ORG_ADMIN");
    }

    /** A second user of the caller's organisation with this role (MEMBER, ORG_ADMIN), with a key of its own. */
    Caller colleague(Caller caller, String role) {
        String user = Ids.newId();
        String key = Secrets.newApiKey();
        jdbc.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at) "
                + "VALUES (?, ?, ?, ?, ?, 0)", user, caller.organisationId(), user + "@example.com",
                Secrets.PASSWORDS.encode("pw-" + user), role);
        jdbc.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at) "
                + "VALUES (?, ?, ?, 'test', ?, 0)", Ids.newId(), user, caller.organisationId(), Secrets.hashApiKey(key));
        return new Caller(caller.organisationId(), user, key);
    }

    /** Appends one event of an aggregate to the event store and answers its global position. */
    long append(String aggregateId, Object payload) {
        return append(aggregateId, payload, org.axonframework.messaging.MetaData.emptyInstance());
    }

    /** The same with metadata, e.g. the correlation id the events of one command share. */
    long append(String aggregateId, Object payload, org.axonframework.messaging.MetaData metaData) {
        long sequence = SEQUENCES.computeIfAbsent(aggregateId, id -> new AtomicLong()).getAndIncrement();
        eventStore.publish(new GenericDomainEventMessage<>("ProjectAggregate", aggregateId, sequence, payload, metaData));
        Long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry WHERE aggregate_identifier = ?",
                Long.class, aggregateId);
        return position == null ? 0 : position;
    }

    record Project(String id, String primaryLocaleId, long position) {
    }

    Project project(Caller caller, String name, long at) {
        String projectId = Ids.newId();
        String localeId = Ids.newId();
        append(projectId, new ProjectCreatedEvent(projectId, caller.organisationId(), name, "", caller.userId(), at));
        long position = append(projectId, new LocaleCreatedEvent(projectId, caller.organisationId(), localeId,
                UUID.randomUUID().toString(), "en-US", "en-US", true, null, caller.userId(), at));
        return new Project(projectId, localeId, position);
    }

    long locale(Caller caller, String projectId, String localeId, String name, String language, long at) {
        return append(projectId, new LocaleCreatedEvent(projectId, caller.organisationId(), localeId,
                UUID.randomUUID().toString(), name, language, false, null, caller.userId(), at));
    }

    @Autowired
    ai.convo.query.rebuild.RebuildRunner rebuildRunner;

    /** Asks for a rebuild as the command service's rebuild task does; answers its id. */
    String requestRebuild(java.util.List<String> projections, boolean requireIdentical) {
        String id = Ids.newId();
        jdbc.update("INSERT INTO projection_rebuild (id, projections, require_identical) VALUES (?, ?, ?)", id,
                projections.toArray(String[]::new), requireIdentical);
        return id;
    }

    /** Wakes the rebuild runner and waits until the rebuild ended (done, failed or cancelled): its row. */
    Map<String, Object> awaitRebuild(String id) {
        rebuildRunner.wake();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> row = jdbc.queryForMap("SELECT * FROM projection_rebuild WHERE id = ?", id);
            if (java.util.List.of("done", "failed", "cancelled").contains(row.get("status"))) {
                return row;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("Rebuild " + id + " did not end: " + jdbc.queryForMap(
                "SELECT status, events_done, events_total, passes FROM projection_rebuild WHERE id = ?", id));
    }
}
