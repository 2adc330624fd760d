package ai.convo.query.consistency;

import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.AuthScheme;
import ai.convo.persistence.ChangeNotifications;
import ai.convo.persistence.DatabaseSettings;
import ai.convo.persistence.EventNotifications;
import ai.convo.persistence.PersistenceConfiguration;
import ai.convo.persistence.R2dbcIdentityStore;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.Notification;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * One connection of its own that both listens for read-model changes (which invalidate cached answers) and runs the
 * look-ups of principals' newest writes. PostgreSQL sends a listening session every notification of a transaction
 * that committed before a query's ReadyForQuery, and the driver hands them over in that order: so when a look-up
 * (sent after its read arrived) answers, every change committed before the read arrived has invalidated what it
 * touched. A cached answer is then never older than what any replica showed before the read: reads stay monotonic
 * across replicas. While the connection is down, nothing is cached and look-ups go through the pool.
 */
@Component
public class ConsistencyChannel implements SmartLifecycle, ChangeNotifications {

    private static final Logger log = LoggerFactory.getLogger(ConsistencyChannel.class);
    /**
     * The principals of some API keys, each with its user's newest write; then each key's newest row, one backward
     * index step per key (a max() grouped over the key's rows read all of them: 6 ms once a busy principal had 4,600
     * unpruned rows, and every read waits for this look-up); then, as rows without a key, which of the projections'
     * gaps ($2) an event fills by now. One round trip, after every read it answers arrived: a read by API key learns
     * who it is and what it must reflect at once.
     */
    static final String LOOKUP = "SELECT i.id AS principal_key, w.position, i.key_hash, i.id, i.organisation_id, i.role, "
            + "i.email, i.roles FROM (" + R2dbcIdentityStore.keyPrincipals("$3::char(64)[]") + ") i "
            + "LEFT JOIN LATERAL (SELECT p.position FROM principal_write p WHERE p.principal_key = i.id "
            + "ORDER BY p.position DESC LIMIT 1) w ON true "
            + "UNION ALL SELECT k.principal_key, w.position, NULL, NULL, NULL, NULL, NULL, NULL "
            + "FROM unnest($1::text[]) AS k(principal_key) "
            + "CROSS JOIN LATERAL (SELECT p.position FROM principal_write p WHERE p.principal_key = k.principal_key "
            + "ORDER BY p.position DESC LIMIT 1) w "
            + "UNION ALL SELECT NULL, e.global_index, NULL, NULL, NULL, NULL, NULL, NULL "
            + "FROM domain_event_entry e WHERE e.global_index = ANY($2::bigint[])";

    /** What a look-up found: each key's newest position, the gaps that hold an event, the active keys' principals. */
    record Found(Map<String, Long> newest, Set<Long> filled, Map<String, ApiPrincipal> byKeyHash) {
    }

    /** A row of {@link #LOOKUP}. */
    record Row(String principalKey, Long position, String keyHash, ApiPrincipal principal) {

        static Row of(Readable row) {
            String keyHash = row.get("key_hash", String.class);
            return new Row(row.get("principal_key", String.class), row.get("position", Long.class), keyHash,
                    keyHash == null ? null : R2dbcIdentityStore.principal(row, AuthScheme.API_KEY_HEADER));
        }
    }

    private final PostgresqlConnectionFactory factory;
    private final Set<EventNotifications.ChangeListener> listeners = ConcurrentHashMap.newKeySet();
    private volatile PostgresqlConnection connection;
    private volatile Disposable notifications;
    private volatile boolean running;
    private volatile long backoffMillis = 100;

    public ConsistencyChannel(DatabaseSettings settings, LoopResources r2dbcLoops) {
        this.factory = PersistenceConfiguration.postgres(settings, r2dbcLoops);
    }

    @Override
    public void subscribe(EventNotifications.ChangeListener listener) {
        listeners.add(listener);
    }

    @Override
    public boolean listening() {
        return connection != null;
    }

    /**
     * The active keys' principals, the newest position under each key (and principal) that has one, and which gaps
     * hold an event, over this connection; empty when it is down.
     */
    Mono<Found> newest(String[] keys, Long[] gaps, String[] keyHashes) {
        PostgresqlConnection current = connection;
        if (current == null) {
            return Mono.empty();
        }
        return current.createStatement(LOOKUP).bind("$1", keys).bind("$2", gaps).bind("$3", keyHashes).execute()
                .flatMap(result -> result.map((row, meta) -> Row.of(row)))
                .collectList()
                .map(ConsistencyChannel::found)
                .doOnError(error -> lost(current, error));
    }

    /** Rows of {@link #LOOKUP}: a key's principal, a key and its position, or no key and a gap's position. */
    static Found found(List<Row> rows) {
        Map<String, Long> newest = new HashMap<>();
        Set<Long> filled = new HashSet<>();
        Map<String, ApiPrincipal> byKeyHash = new HashMap<>();
        for (Row row : rows) {
            if (row.keyHash() != null) {
                byKeyHash.put(row.keyHash(), row.principal());
            }
            if (row.principalKey() == null) {
                filled.add(row.position());
            } else if (row.position() != null) {
                newest.put(row.principalKey(), row.position());
            }
        }
        return new Found(newest, filled, byKeyHash);
    }

    private void connect() {
        factory.create()
                .flatMap(opened -> {
                    // Subscribe before LISTEN, so no notification falls between the two.
                    Disposable subscription = opened.getNotifications().subscribe(this::dispatch,
                            error -> lost(opened, error), () -> lost(opened, null));
                    return opened.createStatement("LISTEN " + EventNotifications.READ_MODEL_CHANGES).execute()
                            .flatMap(PostgresqlResult::getRowsUpdated).then()
                            // The look-up's one plan serves any keys; left to choose, PostgreSQL plans it anew on
                            // every execution (it knows how many keys only then), which cost more than running it.
                            .then(opened.createStatement("SET plan_cache_mode = force_generic_plan").execute()
                                    .flatMap(PostgresqlResult::getRowsUpdated).then())
                            .thenReturn(opened)
                            .doOnSuccess(listening -> notifications = subscription)
                            .doOnError(error -> {
                                subscription.dispose();
                                opened.close().subscribe(null, ignored -> { });
                            });
                })
                .subscribe(opened -> {
                    if (!running) {
                        opened.close().subscribe(null, ignored -> { });
                        return;
                    }
                    connection = opened;
                    backoffMillis = 100;
                    listeners.forEach(listener -> listener.listening(true));
                }, error -> retryLater(error));
    }

    private void dispatch(Notification notification) {
        for (EventNotifications.ChangeListener listener : listeners) {
            try {
                listener.changed(notification.getName(), notification.getParameter());
            } catch (RuntimeException e) {
                log.warn("A change listener failed", e);
            }
        }
    }

    private synchronized void lost(PostgresqlConnection which, Throwable error) {
        if (connection != which) {
            return;
        }
        connection = null;
        listeners.forEach(listener -> listener.listening(false));
        Disposable subscription = notifications;
        if (subscription != null) {
            subscription.dispose();
        }
        which.close().subscribe(null, ignored -> { });
        retryLater(error);
    }

    private void retryLater(Throwable error) {
        if (!running) {
            return;
        }
        log.warn("The consistency channel is down ({}); reads look up through the pool and nothing is cached. "
                + "Reconnecting.", error == null ? "closed" : error.toString());
        long delay = backoffMillis;
        backoffMillis = Math.min(delay * 2, 5000);
        Mono.delay(Duration.ofMillis(delay)).subscribe(tick -> connect());
    }

    @Override
    public void start() {
        running = true;
        connect();
    }

    @Override
    public synchronized void stop() {
        running = false;
        PostgresqlConnection current = connection;
        connection = null;
        listeners.forEach(listener -> listener.listening(false));
        if (notifications != null) {
            notifications.dispose();
        }
        if (current != null) {
            current.close().block(Duration.ofSeconds(5));
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
