package ai.convo.persistence;

import ai.convo.contract.common.Ids;
import ai.convo.http.audit.Refusal;
import ai.convo.http.audit.RefusalLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Writes refused requests into refused_request (the audit trail's 'unauthorized' events), throttled by
 * {@link RefusalThrottle}: a row stands for itself and {@code repeated} refusals of its source held back before it.
 * Fire-and-forget on the primary: a refusal is answered without waiting for its row, and a database that cannot
 * take rows is logged once, not per refusal. Every window, the sources whose flood ended get the row that counts it.
 */
@Component
public class RefusedRequests extends Periodic implements RefusalLog {

    static final Duration WINDOW = Duration.ofSeconds(10);
    static final int MAX_SOURCES = 10_000;
    static final int MAX_ROWS_PER_SECOND = 50;
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(2);
    private static final Logger log = LoggerFactory.getLogger(RefusedRequests.class);

    private record Write(RefusalThrottle.Row row, CompletableFuture<Void> done) {
    }

    private final DatabaseClient db;
    private final RefusalThrottle throttle;
    /** Guards the throttle and the registration of writes, so {@link #settled()} sees every write decided before it. */
    private final Object lock = new Object();
    private final Set<CompletableFuture<Void>> writing = ConcurrentHashMap.newKeySet();
    private volatile boolean failing;
    private long lostReported;

    @Autowired
    public RefusedRequests(DatabaseClient db) {
        this(db, System::currentTimeMillis);
    }

    RefusedRequests(DatabaseClient db, LongSupplier clock) {
        super("refused-requests", WINDOW);
        this.db = db;
        this.throttle = new RefusalThrottle(clock, WINDOW.toMillis(), MAX_SOURCES, MAX_ROWS_PER_SECOND);
    }

    @Override
    public void refused(Refusal refusal) {
        List<Write> writes;
        synchronized (lock) {
            RefusalThrottle.Row row = throttle.offer(refusal);
            writes = row == null ? List.of() : register(List.of(row));
        }
        write(writes);
    }

    /** Writes now what every source has held back, whatever its window: at shutdown, and for tests. */
    public void flush() {
        List<Write> writes;
        synchronized (lock) {
            writes = register(throttle.due(true));
        }
        write(writes);
    }

    /** Completes when every row decided so far is written (or failed to be): what a test waits for. */
    public CompletableFuture<Void> settled() {
        synchronized (lock) {
            return CompletableFuture.allOf(writing.toArray(CompletableFuture[]::new));
        }
    }

    @Override
    protected void runOnce() {
        List<Write> writes;
        long lost;
        synchronized (lock) {
            writes = register(throttle.due(false));
            lost = throttle.lost() - lostReported;
            lostReported = throttle.lost();
        }
        write(writes);
        if (lost > 0) {
            log.warn("{} refused requests were not recorded: they came from more than {} sources at once",
                    lost, MAX_SOURCES);
        }
    }

    /** What is held back is written before the pool closes, if it can be within a moment. */
    @Override
    public void stop() {
        super.stop();
        flush();
        try {
            settled().get(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.warn("Refused requests held back at shutdown may not be recorded: {}", e.toString());
        }
    }

    private List<Write> register(List<RefusalThrottle.Row> rows) {
        List<Write> writes = new ArrayList<>(rows.size());
        for (RefusalThrottle.Row row : rows) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            writing.add(done);
            writes.add(new Write(row, done));
        }
        return writes;
    }

    private void write(List<Write> writes) {
        for (Write write : writes) {
            insert(write.row())
                    .doFinally(signal -> {
                        writing.remove(write.done());
                        write.done().complete(null);
                    })
                    .subscribe(null, this::failed, this::written);
        }
    }

    private Mono<Void> insert(RefusalThrottle.Row row) {
        Refusal r = row.refusal();
        DatabaseClient.GenericExecuteSpec spec = db.sql("INSERT INTO refused_request (id, organisation_id, user_id, "
                        + "email, method, path, status, scheme, remote_address, repeated, occurred_at) VALUES (:id, "
                        + ":org, :user, :email, :method, :path, :status, :scheme, :remote, :repeated, :at)")
                .bind("id", Ids.newId())
                .bind("method", r.method())
                .bind("path", r.path())
                .bind("status", r.status())
                .bind("repeated", row.repeated())
                .bind("at", r.occurredAtMillis());
        spec = text(spec, "org", r.organisationId());
        spec = text(spec, "user", r.userId());
        spec = text(spec, "email", r.email());
        spec = text(spec, "scheme", r.scheme());
        spec = text(spec, "remote", r.remoteAddress());
        return spec.then();
    }

    private static DatabaseClient.GenericExecuteSpec text(DatabaseClient.GenericExecuteSpec spec, String name,
                                                          String value) {
        return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
    }

    private void failed(Throwable error) {
        if (!failing) {
            failing = true;
            log.warn("Refused requests cannot be recorded (logged once until one is again): {}", error.toString());
        }
    }

    private void written() {
        if (failing) {
            failing = false;
            log.info("Refused requests are recorded again");
        }
    }
}
