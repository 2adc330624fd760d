package ai.convo.query.rebuild;

import ai.convo.http.media.Renderer;
import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.persistence.CarefulProjections;
import ai.convo.persistence.upcasting.StoredEvents;
import ai.convo.query.audit.AuditRetention;
import ai.convo.query.deadletter.ParkedSequences;
import ai.convo.query.deadletter.ParkingPolicy;
import ai.convo.query.readmodel.Rebuilding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.axonframework.common.ObjectUtils;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.AbstractEventProcessor;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventUtils;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.upcasting.event.EventUpcasterChain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Rebuilds projections from the event log into tables beside the live ones, then switches them in.
 * <p>
 * The live processors keep serving and following new events meanwhile. A rebuild never runs ahead of them: in each
 * pass it applies exactly the events the live processors' tokens cover (read at the start of the pass) and the tokens
 * it had applied before do not, so the new tables always equal what the live tables held at some moment, event for
 * event. Passes repeat until little is left; then one transaction blocks the live writers of those tables (readers go
 * on), applies the rest up to the tokens as they stand, compares digests of live and new tables, and moves the new
 * tables in place of the old (readers wait for that move only). The live tokens stay: they describe the new tables
 * exactly. Progress is committed with the rows of each batch, so a rebuild whose replica died resumes where it stood.
 */
@Component
public class Rebuilder {

    /** Thrown between batches when the rebuild must stop (cancelled, or its lease was lost). */
    static final class Stopped extends RuntimeException {
        Stopped(String message) {
            super(message, null, false, false);
        }
    }

    /** The new tables differ from the live ones and the request asked for identical ones. */
    static final class NotIdentical extends RuntimeException {
        final Map<String, Object> digests;

        NotIdentical(Map<String, Object> digests) {
            super("The rebuilt tables differ from the live ones", null, false, false);
            this.digests = digests;
        }
    }

    /** What a run reports when it has switched. */
    record Outcome(boolean identical, Map<String, Object> digests, long writePauseMillis, long readPauseMillis) {
    }

    private static final int SWITCH_ATTEMPTS = 5;
    private static final Logger log = LoggerFactory.getLogger(Rebuilder.class);
    private static final String EVENT_COLUMNS = "global_index, type, aggregate_identifier, sequence_number, "
            + "event_identifier, time_stamp, payload_type, payload_revision, payload, meta_data";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final EventProcessingConfiguration processing;
    private final AuditRetention retention;
    private final Serializer serializer;
    private final EventUpcasterChain upcasters;
    private final int batchSize;
    private final long switchWithin;
    private final int workers;
    private final int finishers;
    private final ParkedSequences parked;

    public Rebuilder(JdbcTemplate jdbc, PlatformTransactionManager transactionManager,
                     EventProcessingConfiguration processing, StoredEvents stored, AuditRetention retention,
                     @Value("${app.rebuild.batch-size:2000}") int batchSize,
                     @Value("${app.rebuild.switch-within:500}") long switchWithin,
                     @Value("${app.rebuild.workers:1}") int workers,
                     @Value("${app.rebuild.finishers:2}") int finishers, ParkedSequences parked) {
        this.jdbc = jdbc;
        this.parked = parked;
        this.transactions = new TransactionTemplate(transactionManager);
        this.processing = processing;
        this.retention = retention;
        // The one upcaster chain every reader of the store uses: the rebuild sees each event in its current shape.
        this.serializer = stored.serializer();
        this.upcasters = stored.chain();
        this.batchSize = batchSize;
        this.switchWithin = switchWithin;
        this.workers = Math.max(1, workers);
        this.finishers = Math.max(1, finishers);
    }

    /** A processor taking part: how to find an event's segment and how to apply it. */
    record Target(String name, EventHandlerInvoker invoker, SequencingPolicy<? super EventMessage<?>> policy,
                  Map<Class<?>, Boolean> handled) {

        Target(String name, EventHandlerInvoker invoker, SequencingPolicy<? super EventMessage<?>> policy) {
            this(name, invoker, policy, new ConcurrentHashMap<>());
        }

        /**
         * Whether the projection handles the event: its handlers choose by payload type alone (no handler asks for
         * metadata), so the invoker's answer, which walks every handler, is asked once a type.
         */
        boolean handles(EventMessage<?> event) {
            return handled.computeIfAbsent(event.getPayloadType(),
                    type -> invoker.canHandle(event, Segment.ROOT_SEGMENT));
        }

        int hash(EventMessage<?> event) {
            return Objects.hashCode(ObjectUtils.getOrDefault(policy.getSequenceIdentifierFor(event), event::getIdentifier));
        }
    }

    /** The state of a run, as stored in its projection_rebuild row. */
    private static final class State {
        final String id;
        final List<String> projections;
        final boolean requireIdentical;
        Map<String, TokenSet> applied = new TreeMap<>();
        Map<String, TokenSet> target;
        /** Per worker: the last global index it looked at in the pass in progress, and the events it looked at. */
        long[] scannedTo;
        long[] done;
        long eventsTotal;
        int passes;
        final AtomicLong readNanos = new AtomicLong();
        final AtomicLong handleNanos = new AtomicLong();
        final AtomicLong writeNanos = new AtomicLong();
        /**
         * Per projection, the sequences the live processor has parked and this rebuild could not apply either: their
         * events are left out here as they are from the live tables, and their dead letters stay (issue 37).
         */
        final Map<String, Set<String>> skipped = new java.util.concurrent.ConcurrentHashMap<>();

        State(String id, List<String> projections, boolean requireIdentical, int workers) {
            this.id = id;
            this.projections = projections;
            this.requireIdentical = requireIdentical;
            this.scannedTo = new long[workers];
            this.done = new long[workers];
            Arrays.fill(scannedTo, -1);
        }

        int workers() {
            return scannedTo.length;
        }

        /** Events every worker has looked at. */
        synchronized long eventsDone() {
            return Arrays.stream(done).min().orElse(0);
        }
    }

    /**
     * Runs (or resumes) the rebuild {@code id} to its end: switched, failed or cancelled. {@code keepGoing} is asked
     * between batches; {@code runner} must hold the row's claim (every progress update checks it, so a runner that
     * lost its claim commits nothing more).
     */
    public void run(String id, String runner, BooleanSupplier keepGoing) {
        State state = load(id);
        if (state.projections.isEmpty() || !state.projections.stream().allMatch(ReadModelTables.PROJECTIONS::containsKey)) {
            throw new IllegalArgumentException("Unknown projections " + state.projections);
        }
        List<String> tables = tables(state.projections, true);
        List<String> scratch = tables(state.projections, false);
        String schema = ShadowTables.schemaOf(id);
        List<Target> targets = targets(state.projections);
        try {
            // A crash of PostgreSQL empties the unlogged copies (ShadowTables): then the rebuild starts again.
            if (jdbc.queryForObject("SELECT status FROM projection_rebuild WHERE id = ?", String.class, id)
                    .equals("requested") || !ShadowTables.intact(jdbc, schema)) {
                transactions.executeWithoutResult(tx -> {
                    ShadowTables.create(jdbc, schema, Stream.concat(tables.stream(), scratch.stream()).toList());
                    claimed(jdbc.update("UPDATE projection_rebuild SET status = 'running', started_at = now(), "
                            + "applied = '{}', target = NULL, workers = ?, scanned_to = array_fill(-1::bigint, ARRAY[?]), "
                            + "worker_done = array_fill(0::bigint, ARRAY[?]), events_done = 0 WHERE id = ? AND runner = ?",
                            workers, workers, workers, id, runner));
                });
                state = load(id);
            }
            Outcome outcome = null;
            for (int attempt = 1; outcome == null; attempt++) {
                catchUp(state, targets, schema, runner, keepGoing);
                finish(schema, tables);
                try {
                    outcome = switchOver(state, targets, tables, schema, runner);
                } catch (PessimisticLockingFailureException busy) {
                    // The live writers held their tables past the lock timeout, or a deadlock chose the switch:
                    // nothing of it committed; catch up again from the stored progress and try once more.
                    if (attempt >= SWITCH_ATTEMPTS) {
                        throw busy;
                    }
                    log.info("Rebuild {}: switch attempt {} gave way to live writers ({})", id, attempt, busy.getMessage());
                    state = load(id);
                }
            }
            log.info("Rebuild {} of {} switched: identical={}, writes paused {} ms, reads paused {} ms", id,
                    state.projections, outcome.identical(), outcome.writePauseMillis(), outcome.readPauseMillis());
        } catch (Stopped stopped) {
            if (cancelRequested(id)) {
                ShadowTables.drop(jdbc, schema);
                jdbc.update("UPDATE projection_rebuild SET status = 'cancelled', finished_at = now(), runner = NULL, "
                        + "lease_until = NULL WHERE id = ? AND runner = ?", id, runner);
            }
        } catch (NotIdentical different) {
            ShadowTables.drop(jdbc, schema);
            jdbc.update("UPDATE projection_rebuild SET status = 'failed', digests = ?::jsonb, identical = false, "
                    + "fail_reason = ?, finished_at = now(), runner = NULL, lease_until = NULL WHERE id = ? AND runner = ?",
                    Renderer.JSON.writeValueAsString(different.digests), "The rebuilt tables differ from the live ones "
                            + "(see digests); the live tables were kept.", id, runner);
        }
    }

    /**
     * The copies finished ({@link ShadowTables#finish}) and analyzed for the planner before readers use them (autovacuum
     * is off on them until the switch), {@code finishers} tables at a time, the largest first: each table's rewrite and
     * index builds are statements of their own, each on one core of PostgreSQL's.
     */
    private void finish(String schema, List<String> tables) {
        List<String> largestFirst = jdbc.queryForList("SELECT t FROM unnest(?::text[]) t "
                + "ORDER BY pg_total_relation_size(quote_ident(?) || '.' || quote_ident(t)) DESC, t", String.class,
                tables.toArray(String[]::new), schema);
        AtomicInteger next = new AtomicInteger();
        List<RuntimeException> failures = Workers.run("projection-rebuild-finish",
                Math.min(finishers, largestFirst.size()), (going, finisher) -> {
                    for (int i; going.getAsBoolean() && (i = next.getAndIncrement()) < largestFirst.size(); ) {
                        String table = largestFirst.get(i);
                        ShadowTables.finish(jdbc, schema, List.of(table));
                        jdbc.execute("ANALYZE " + schema + "." + table);
                    }
                });
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    // ---- passes

    /**
     * Passes until the live processors are at most {@code switchWithin} positions ahead of what is applied. The
     * workers of a pass share the events by their sequence in each projection (the live processors' own sequencing
     * policies), so a sequence's events are applied in order, by one worker, as one live segment would.
     */
    private void catchUp(State state, List<Target> targets, String schema, String runner, BooleanSupplier keepGoing) {
        while (true) {
            stopIf(state.id, keepGoing);
            if (state.target == null) {
                Map<String, TokenSet> live = liveTokens(state.projections, false);
                if (behind(state.applied, live) <= switchWithin) {
                    return;
                }
                state.target = live;
                Arrays.fill(state.scannedTo, low(state.applied));
                state.passes++;
                state.eventsTotal = state.eventsDone() + Math.max(0, high(live) - low(state.applied));
                save(state, runner);
            }
            long started = System.nanoTime();
            runWorkers(state, targets, schema, runner, keepGoing);
            log.info("Rebuild {} pass {}: {} ms with {} workers (their reading {} ms, handlers {} ms, sending writes "
                            + "and committing {} ms), {} events so far", state.id, state.passes,
                    (System.nanoTime() - started) / 1_000_000, state.workers(), state.readNanos.get() / 1_000_000,
                    state.handleNanos.get() / 1_000_000, state.writeNanos.get() / 1_000_000, state.eventsDone());
            state.applied = state.target;
            state.target = null;
            save(state, runner);
        }
    }

    /**
     * The workers of a pass and one reader for them: the log is read and made ready a few batches ahead while the
     * workers apply, and once however many workers there are.
     */
    private void runWorkers(State state, List<Target> targets, String schema, String runner, BooleanSupplier keepGoing) {
        int workers = state.workers();
        ReadAhead<TrackedEventMessage<?>> feed = new ReadAhead<>(workers, 2);
        AtomicReference<Stopped> stopped = new AtomicReference<>();
        List<RuntimeException> failures = Workers.run("projection-rebuild", workers + 1, (others, worker) -> {
            if (worker == workers) {
                read(state, feed, () -> others.getAsBoolean() && keepGoing.getAsBoolean(), others, stopped);
            } else {
                apply(state, targets, schema, runner, others, worker, feed);
            }
        });
        if (failures.isEmpty() && stopped.get() != null) {
            throw stopped.get();
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.stream().filter(f -> !(f instanceof Stopped)).findFirst()
                    .orElse(failures.get(0));
            throw first;
        }
    }

    /** How many global positions the applied tokens lag behind the live ones, over all projections. */
    private static long behind(Map<String, TokenSet> applied, Map<String, TokenSet> live) {
        long behind = 0;
        for (Map.Entry<String, TokenSet> entry : live.entrySet()) {
            TokenSet done = applied.getOrDefault(entry.getKey(), TokenSet.NONE);
            behind = Math.max(behind, entry.getValue().highest() - done.highest());
        }
        return live.isEmpty() ? 0 : behind;
    }

    private static long low(Map<String, TokenSet> applied) {
        return applied.values().stream().mapToLong(TokenSet::complete).min().orElse(-1);
    }

    private static long high(Map<String, TokenSet> live) {
        return live.values().stream().mapToLong(TokenSet::highest).max().orElse(-1);
    }

    /**
     * The pass's events from where the furthest-behind worker is, batch by batch to every worker. {@code keepGoing}
     * is asked before each batch; when it says stop, the workers still apply what they were handed, and the pass
     * ends {@code stopped}. The next batch's rows are fetched on a thread of their own while this one's are made
     * ready: PostgreSQL produces them while the payloads are deserialized.
     */
    private void read(State state, ReadAhead<TrackedEventMessage<?>> feed, BooleanSupplier keepGoing,
                      BooleanSupplier workersGoing, AtomicReference<Stopped> stopped) {
        long upTo = high(state.target);
        long after;
        synchronized (state) {
            after = Arrays.stream(state.scannedTo).min().orElse(upTo);
        }
        ExecutorService fetcher = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, Thread.currentThread().getName() + "-fetch");
            thread.setDaemon(true);
            return thread;
        });
        try {
            long from = after;
            Future<List<TrackedEventData<?>>> next = after < upTo ? fetcher.submit(() -> rows(from, upTo)) : null;
            while (next != null) {
                stopIf(state.id, keepGoing);
                long started = System.nanoTime();
                List<TrackedEventData<?>> rows = fetched(next);
                if (rows.isEmpty()) {
                    break;
                }
                long last = position(rows.get(rows.size() - 1));
                next = last < upTo ? fetcher.submit(() -> rows(last, upTo)) : null;
                List<TrackedEventMessage<?>> events = readAhead(rows, serializer, upcasters);
                state.readNanos.addAndGet(System.nanoTime() - started);
                if (!feed.offer(events, workersGoing)) {
                    break;
                }
            }
        } catch (Stopped stop) {
            stopped.set(stop);
        } finally {
            fetcher.shutdownNow();
        }
        feed.end(workersGoing);
    }

    private static List<TrackedEventData<?>> fetched(Future<List<TrackedEventData<?>>> rows) {
        try {
            return rows.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Stopped("Interrupted");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failed ? failed : new IllegalStateException(e.getCause());
        }
    }

    private static long position(TrackedEventData<?> row) {
        return row.trackingToken().position().orElseThrow();
    }

    /**
     * Worker {@code worker}'s share of a pass: the events {@code state.target} covers and {@code state.applied} does
     * not, after its {@code scannedTo}; each batch commits with the worker's progress. A batch chosen as a deadlock's
     * victim (two workers' handlers met on a shared row) rolls back and runs again.
     */
    private void apply(State state, List<Target> targets, String schema, String runner, BooleanSupplier keepGoing,
                       int worker, ReadAhead<TrackedEventMessage<?>> feed) {
        for (List<TrackedEventMessage<?>> events; !(events = feed.next(worker, keepGoing)).isEmpty(); ) {
            Batch batch = choose(state, targets, events, state.scannedTo[worker], worker, state.workers());
            if (batch.events() == 0) {
                continue;
            }
            boolean careful = parked(batch);
            for (int attempt = 1; ; attempt++) {
                boolean thisTime = careful;
                try {
                    carefully(thisTime, () -> transactions.executeWithoutResult(tx -> {
                        run(batch, schema, state, thisTime);
                        saveWorker(state, runner, worker, batch.last(), state.done[worker] + batch.events());
                    }));
                    break;
                } catch (PessimisticLockingFailureException victim) {
                    if (attempt >= 5) {
                        throw victim;
                    }
                    log.info("Rebuild {} worker {}: batch after {} rolled back ({}), again", state.id, worker,
                            state.scannedTo[worker], victim.getMessage());
                } catch (RuntimeException failed) {
                    if (thisTime || failed instanceof Stopped || ParkingPolicy.ofTheMoment(failed)) {
                        throw failed;
                    }
                    // An event a projection cannot apply: the batch again, event by event, to find it (issue 37).
                    careful = true;
                }
            }
            synchronized (state) {
                state.scannedTo[worker] = batch.last();
                state.done[worker] += batch.events();
            }
        }
    }

    /** Whether a live processor of this batch's projections has parked a sequence: then apply it event by event. */
    private boolean parked(Batch batch) {
        Set<String> groups = new java.util.HashSet<>();
        batch.work().values().forEach(targets -> targets.forEach(target -> groups.add(target.name())));
        return parked.all().stream().anyMatch(sequence -> groups.contains(sequence.group()));
    }

    private static void carefully(boolean careful, Runnable work) {
        if (!careful) {
            work.run();
            return;
        }
        try {
            CarefulProjections.during(() -> {
                work.run();
                return null;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The events of one batch this worker applies, in index order, each with the projections it goes to. */
    private record Batch(List<EventMessage<?>> ordered, Map<EventMessage<?>, List<Target>> work, long last, int events) {
    }

    private Batch choose(State state, List<Target> targets, long after, long upTo, int worker, int workers) {
        long started = System.nanoTime();
        List<TrackedEventMessage<?>> events = read(after, upTo);
        state.readNanos.addAndGet(System.nanoTime() - started);
        Batch batch = choose(state, targets, events, after, worker, workers);
        return events.isEmpty() ? new Batch(batch.ordered(), batch.work(), upTo, 0) : batch;
    }

    /** Of {@code events}, those after {@code after} this worker applies, each with the projections it goes to. */
    private Batch choose(State state, List<Target> targets, List<TrackedEventMessage<?>> events, long after, int worker,
                         int workers) {
        Map<EventMessage<?>, List<Target>> work = new IdentityHashMap<>();
        List<EventMessage<?>> ordered = new ArrayList<>();
        int counted = 0;
        for (TrackedEventMessage<?> event : events) {
            long index = event.trackingToken().position().orElseThrow();
            if (index <= after) {
                continue;
            }
            counted++;
            for (Target target : targets) {
                if (!target.handles(event)) {
                    continue;
                }
                int hash = target.hash(event);
                if (Math.floorMod(hash, workers) == worker
                        && state.target.getOrDefault(target.name(), TokenSet.NONE).covers(hash, index)
                        && !state.applied.getOrDefault(target.name(), TokenSet.NONE).covers(hash, index)) {
                    work.computeIfAbsent(event, e -> {
                        ordered.add(e);
                        return new ArrayList<>();
                    }).add(target);
                }
            }
        }
        long last = events.isEmpty() ? after : events.get(events.size() - 1).trackingToken().position().orElseThrow();
        return new Batch(ordered, work, last, counted);
    }

    /** In the caller's transaction: the handlers with search_path on the new tables, and their writes sent. */
    private void run(Batch batch, String schema, State state) {
        run(batch, schema, state, false);
    }

    /** As above; {@code careful}: an event a projection cannot apply is left out if its live sequence is parked. */
    private void run(Batch batch, String schema, State state, boolean careful) {
        long started = System.nanoTime();
        // A batch need not wait for its WAL to reach the disk: if the database crashes before, the batch and the
        // progress it recorded are lost together and the rebuild does them again. (The switch commits as usual.)
        // Every statement is planned for the tables as they are now: they grow from empty, so a plan a connection
        // kept from the first batches (a hash join over a seq scan of a tiny table) would scan the whole table later.
        jdbc.queryForObject("SELECT set_config('search_path', ?, true) || set_config('synchronous_commit', 'off', true) "
                + "|| set_config('plan_cache_mode', 'force_custom_plan', true)", String.class, schema + ", public");
        Rebuilding.during(() -> handle(batch.ordered(), batch.work(), state, careful));
        long handled = System.nanoTime();
        // Sends the writes held back (folds that wait for the flush too) while the search_path still points at the
        // new tables.
        if (jdbc instanceof BatchingJdbcTemplate batching) {
            batching.flush();
        }
        jdbc.queryForObject("SELECT set_config('search_path', 'public', true)", String.class);
        state.handleNanos.addAndGet(handled - started);
        state.writeNanos.addAndGet(System.nanoTime() - handled);
    }

    /**
     * Runs the handlers in one unit of work, as a processor's batch would (handlers may collect and flush at commit).
     * A sequence this rebuild left out stays out; {@code careful} (each handler's writes sent at once under a
     * savepoint, {@link CarefulProjections}): an event a projection cannot apply whose sequence the live processor
     * has parked is left out with the rest of its sequence; one the live processor applied fails the rebuild.
     */
    private void handle(List<EventMessage<?>> ordered, Map<EventMessage<?>, List<Target>> work, State state,
                        boolean careful) {
        if (ordered.isEmpty()) {
            return;
        }
        BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(ordered);
        ResultMessage<?> result = unitOfWork.executeWithResult(() -> {
            EventMessage<?> event = (EventMessage<?>) CurrentUnitOfWork.get().getMessage();
            for (Target target : work.get(event)) {
                // the sequence is only asked for when the rebuild left one out or an event fails
                Set<String> skipped = state.skipped.getOrDefault(target.name(), Set.of());
                if (!skipped.isEmpty() && skipped.contains(sequence(target, event))) {
                    continue;
                }
                try {
                    target.invoker().handle(event, Segment.ROOT_SEGMENT);
                } catch (Exception failed) {
                    String sequence = sequence(target, event);
                    if (!careful || ParkingPolicy.ofTheMoment(failed) || !parkedLive(target.name(), sequence)) {
                        throw failed;
                    }
                    state.skipped.computeIfAbsent(target.name(), name -> ConcurrentHashMap.newKeySet()).add(sequence);
                    log.warn("Rebuild {}: {} cannot apply event {} of sequence {} either ({}); the sequence stays "
                            + "parked and is left out of the rebuilt tables", state.id, target.name(),
                            event.getIdentifier(), sequence, failed.getMessage());
                }
            }
            return null;
        });
        if (result.isExceptional()) {
            Throwable cause = result.exceptionResult();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        }
    }

    private static String sequence(Target target, EventMessage<?> event) {
        return String.valueOf(ObjectUtils.getOrDefault(target.policy().getSequenceIdentifierFor(event),
                event::getIdentifier));
    }

    private boolean parkedLive(String group, String sequence) {
        return processing.deadLetterQueue(group).map(queue -> queue.contains(sequence)).orElse(false);
    }

    /** The next events after {@code after} up to {@code upTo}, upcast and ready to deserialize, in index order. */
    List<TrackedEventMessage<?>> read(long after, long upTo) {
        return readAhead(rows(after, upTo), serializer, upcasters);
    }

    /** The stored rows of the next events after {@code after} up to {@code upTo}, a batch at most, in index order. */
    private List<TrackedEventData<?>> rows(long after, long upTo) {
        return jdbc.query("SELECT " + EVENT_COLUMNS + " FROM domain_event_entry "
                        + "WHERE global_index > ? AND global_index <= ? ORDER BY global_index LIMIT ?",
                // by position (EVENT_COLUMNS' order): a look-up by name costs more than the value, once per column
                (rs, i) -> new TrackedDomainEventData<>(GapAwareTrackingToken.newInstance(rs.getLong(1), Set.of()),
                        new GenericDomainEventEntry<>(rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                                rs.getString(6), rs.getString(7), rs.getString(8), rs.getBytes(9), rs.getBytes(10))),
                after, upTo, batchSize);
    }

    /** Stored rows as messages, upcast, each payload deserialized already ({@link #deserialized}). */
    static List<TrackedEventMessage<?>> readAhead(List<TrackedEventData<?>> rows, Serializer serializer,
                                                  EventUpcasterChain upcasters) {
        return EventUtils.upcastAndDeserializeTrackedEvents(rows.stream(), serializer, upcasters)
                .<TrackedEventMessage<?>>map(Rebuilder::deserialized).toList();
    }

    /**
     * The event with its payload deserialized (cached in the message), which every handler reads: done by the reader,
     * a thread of its own, so the workers need not. Metadata and timestamp stay lazy (most projections read neither).
     * A payload that fails is left to fail again where the workers handle it, as it would have without this.
     */
    private static TrackedEventMessage<?> deserialized(TrackedEventMessage<?> event) {
        try {
            event.getPayload();
        } catch (RuntimeException leftToTheHandlers) {
            // the handlers meet it, and the careful path decides (issue 37)
        }
        return event;
    }

    // ---- the switch

    private Outcome switchOver(State state, List<Target> targets, List<String> tables, String schema, String runner) {
        String retired = ShadowTables.retiredOf(state.id);
        long[] pauses = new long[2];
        // Audit retention drops by time: both tables lose the events expired at one cut-off (the live one first, on
        // its own, so that the other connection's digest below sees it).
        long cutOff = System.currentTimeMillis();
        if (tables.contains("audit_event")) {
            retention.dropExpired("public", cutOff);
        }
        // Taken before the locks: the live processors' transactions that wait for them hold pool connections, and
        // with every projection locked they can hold them all.
        SingleConnectionDataSource sideConnection = new SingleConnectionDataSource(connection(), true);
        JdbcTemplate side = new JdbcTemplate(sideConnection);
        Outcome outcome;
        try {
            List<String[]> applied = new ArrayList<>();
            outcome = switchTransaction(state, targets, tables, schema, runner, retired, pauses, cutOff, side, applied);
            // committed: the parked sequences the new tables hold are no longer parked for reads either
            applied.forEach(sequence -> parked.removed(sequence[0], sequence[1]));
        } finally {
            sideConnection.destroy();
        }
        return new Outcome(outcome.identical(), outcome.digests(), pauses[0], pauses[1]);
    }

    private java.sql.Connection connection() {
        try {
            return jdbc.getDataSource().getConnection();
        } catch (java.sql.SQLException e) {
            throw new org.springframework.jdbc.CannotGetJdbcConnectionException("A connection for the switch", e);
        }
    }

    private Outcome switchTransaction(State state, List<Target> targets, List<String> tables, String schema,
                                      String runner, String retired, long[] pauses, long cutOff, JdbcTemplate side,
                                      List<String[]> applied) {
        return transactions.execute(tx -> {
            jdbc.execute("SET LOCAL lock_timeout = '5s'");
            // A cancel is either seen here, or arrives after the commit, when there is nothing left to cancel.
            if (Boolean.TRUE.equals(jdbc.queryForObject("SELECT cancel_requested FROM projection_rebuild WHERE id = ? "
                    + "FOR UPDATE", Boolean.class, state.id))) {
                throw new Stopped("Cancelled");
            }
            // Writers of these tables wait from here to the commit; readers go on until the move below.
            jdbc.execute("LOCK TABLE " + String.join(", ", tables.stream().sorted().map(t -> "public." + t).toList())
                    + " IN EXCLUSIVE MODE");
            long writesFrom = System.nanoTime();
            state.target = liveTokens(state.projections, true);
            long upTo = high(state.target);
            for (long after = low(state.applied); after < upTo; ) {
                Batch batch = choose(state, targets, after, upTo, 0, 1);
                carefully(parked(batch), () -> run(batch, schema, state, parked(batch)));
                after = batch.last();
            }
            state.applied = state.target;
            state.target = null;
            jdbc.queryForObject("SELECT set_config('synchronous_commit', 'on', true)", String.class);
            // The new tables hold every parked event they could apply: those dead letters go with the switch; the
            // sequences left out stay parked (the live processors' commits wait for the token lock above).
            for (Target target : targets) {
                jdbc.query("WITH d AS (DELETE FROM dead_letter_entry WHERE processing_group = ? AND NOT "
                        + "(sequence_identifier = ANY (?)) RETURNING sequence_identifier) INSERT INTO dead_letter_audit "
                        + "(happened, processing_group, sequence_identifier, detail) SELECT DISTINCT 'rebuilt', ?, "
                        + "sequence_identifier, ? FROM d RETURNING sequence_identifier", rs -> {
                            applied.add(new String[] {target.name(), rs.getString(1)});
                        }, target.name(), state.skipped.getOrDefault(target.name(), Set.of()).toArray(String[]::new),
                        target.name(), "applied by rebuild " + state.id);
            }

            if (tables.contains("audit_event")) {
                retention.dropExpired(schema, cutOff);
            }
            // The live tables on another connection meanwhile: no writer can change them while this holds the lock,
            // and that connection sees exactly what is committed, which is what the live processors' tokens cover.
            CompletableFuture<List<TableDigest>> liveDigests = CompletableFuture.supplyAsync(
                    () -> tables.stream().map(table -> TableDigest.of(side, "public", table)).toList());
            List<TableDigest> rebuiltDigests = tables.stream().map(table -> TableDigest.of(jdbc, schema, table)).toList();
            Map<String, Object> digests = new LinkedHashMap<>();
            boolean identical = true;
            List<TableDigest> lives = liveDigests.join();
            for (int i = 0; i < tables.size(); i++) {
                TableDigest live = lives.get(i);
                TableDigest rebuilt = rebuiltDigests.get(i);
                identical &= live.equals(rebuilt);
                digests.put(tables.get(i), Map.of("live", Map.of("rows", live.rows(), "sum", live.sum()),
                        "rebuilt", Map.of("rows", rebuilt.rows(), "sum", rebuilt.sum())));
            }
            if (state.requireIdentical && !identical) {
                throw new NotIdentical(digests);
            }
            Map<String, String> views = ShadowTables.viewsOver(jdbc, tables);
            long readsFrom = System.nanoTime();
            jdbc.execute("CREATE SCHEMA " + retired);
            for (String table : tables) {
                jdbc.execute("ALTER TABLE public." + table + " SET SCHEMA " + retired);
                jdbc.execute("ALTER TABLE " + schema + "." + table + " SET SCHEMA public");
                jdbc.execute("ALTER TABLE public." + table + " RESET (autovacuum_enabled)");
            }
            views.forEach((name, definition) -> jdbc.execute("CREATE OR REPLACE VIEW " + name + " AS " + definition));
            // Cached answers were read from the old tables: a bare notification invalidates them all at the commit.
            jdbc.queryForObject("SELECT pg_notify('read_model_changes', '')::text", String.class);
            // The old tables and the scratch copies go with the same commit (their files are unlinked then): no
            // schema of a finished rebuild is left behind, whatever happens next.
            ShadowTables.drop(jdbc, retired);
            ShadowTables.drop(jdbc, schema);
            claimed(jdbc.update("UPDATE projection_rebuild SET status = 'done', finished_at = now(), applied = ?::jsonb, "
                            + "target = NULL, digests = ?::jsonb, identical = ?, runner = NULL, lease_until = NULL, "
                            + "events_done = ?, events_total = ?, write_pause_ms = ?, read_pause_ms = ? "
                            + "WHERE id = ? AND runner = ?", json(state.applied), Renderer.JSON.writeValueAsString(digests),
                    identical, state.eventsDone(), Math.max(state.eventsTotal, state.eventsDone()),
                    (System.nanoTime() - writesFrom) / 1_000_000, (System.nanoTime() - readsFrom) / 1_000_000,
                    state.id, runner));
            pauses[0] = (System.nanoTime() - writesFrom) / 1_000_000;
            pauses[1] = (System.nanoTime() - readsFrom) / 1_000_000;
            return new Outcome(identical, digests, 0, 0);
        });
    }

    // ---- state

    /** The live processors' tokens, segment by segment; {@code lock}: FOR UPDATE, which stops their commits. */
    private Map<String, TokenSet> liveTokens(List<String> projections, boolean lock) {
        Map<String, Map<Integer, TokenSet.Position>> segments = new TreeMap<>();
        projections.forEach(p -> segments.put(p, new TreeMap<>()));
        jdbc.query("SELECT processor_name, segment, token FROM token_entry WHERE processor_name = ANY (?) "
                        + "ORDER BY processor_name, segment" + (lock ? " FOR UPDATE" : ""),
                rs -> {
                    segments.get(rs.getString(1)).put(rs.getInt(2), TokenSet.stored(rs.getBytes(3)));
                }, (Object) projections.toArray(String[]::new));
        Map<String, TokenSet> sets = new TreeMap<>();
        segments.forEach((p, s) -> sets.put(p, new TokenSet(s)));
        return sets;
    }

    private State load(String id) {
        return jdbc.queryForObject("SELECT projections, require_identical, applied, target, scanned_to, worker_done, "
                + "events_total, passes, workers, parked_skipped FROM projection_rebuild WHERE id = ?", (rs, i) -> {
                    List<String> projections = List.of((String[]) rs.getArray(1).getArray());
                    State state = new State(id, projections, rs.getBoolean(2), rs.getInt(9));
                    state.applied = tokenSets(rs.getString(3));
                    String target = rs.getString(4);
                    state.target = target == null ? null : tokenSets(target);
                    Long[] scanned = (Long[]) rs.getArray(5).getArray();
                    Long[] done = (Long[]) rs.getArray(6).getArray();
                    for (int w = 0; w < state.workers(); w++) {
                        state.scannedTo[w] = w < scanned.length ? scanned[w] : -1;
                        state.done[w] = w < done.length ? done[w] : 0;
                    }
                    state.eventsTotal = rs.getLong(7);
                    state.passes = rs.getInt(8);
                    Renderer.JSON.readTree(rs.getString(10)).properties().forEach(entry -> {
                        Set<String> sequences = ConcurrentHashMap.newKeySet();
                        entry.getValue().forEach(sequence -> sequences.add(sequence.asString()));
                        state.skipped.put(entry.getKey(), sequences);
                    });
                    return state;
                }, id);
    }

    private void save(State state, String runner) {
        long done = state.eventsDone();
        claimed(jdbc.update("UPDATE projection_rebuild SET applied = ?::jsonb, target = ?::jsonb, scanned_to = ?, "
                        + "worker_done = ?, events_done = ?, events_total = ?, passes = ? WHERE id = ? AND runner = ?",
                json(state.applied), state.target == null ? null : json(state.target), boxed(state.scannedTo),
                boxed(state.done), done, Math.max(state.eventsTotal, done), state.passes, state.id, runner));
    }

    /** One worker's progress, in its batch's transaction. */
    private void saveWorker(State state, String runner, int worker, long scannedTo, long done) {
        long eventsDone;
        synchronized (state) {
            long[] all = state.done.clone();
            all[worker] = done;
            eventsDone = Arrays.stream(all).min().orElse(0);
        }
        claimed(jdbc.update("UPDATE projection_rebuild SET scanned_to[?] = ?, worker_done[?] = ?, events_done = "
                        + "greatest(events_done, ?), parked_skipped = ?::jsonb WHERE id = ? AND runner = ?", worker + 1,
                scannedTo, worker + 1, done, eventsDone, Renderer.JSON.writeValueAsString(state.skipped), state.id,
                runner));
    }

    private static Long[] boxed(long[] values) {
        return Arrays.stream(values).boxed().toArray(Long[]::new);
    }

    private static void claimed(int updated) {
        if (updated != 1) {
            throw new Stopped("This runner no longer holds the rebuild");
        }
    }

    private void stopIf(String id, BooleanSupplier keepGoing) {
        if (!keepGoing.getAsBoolean() || cancelRequested(id)) {
            throw new Stopped("Stopped");
        }
    }

    private boolean cancelRequested(String id) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT cancel_requested FROM projection_rebuild WHERE id = ?",
                Boolean.class, id));
    }

    private static String json(Map<String, TokenSet> sets) {
        Map<String, Object> json = new TreeMap<>();
        sets.forEach((p, s) -> json.put(p, s.toJson()));
        return Renderer.JSON.writeValueAsString(json);
    }

    private static Map<String, TokenSet> tokenSets(String json) {
        Map<String, TokenSet> sets = new TreeMap<>();
        JsonNode node = Renderer.JSON.readTree(json);
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            sets.put(entry.getKey(), TokenSet.fromJson(entry.getValue()));
        }
        return sets;
    }

    List<Target> targets(List<String> projections) {
        List<Target> targets = new ArrayList<>();
        for (String name : projections) {
            AbstractEventProcessor processor = processing.eventProcessor(name, AbstractEventProcessor.class)
                    .orElseThrow(() -> new IllegalStateException("No event processor named " + name));
            targets.add(new Target(name, withoutDeadLetters(processor.eventHandlerInvoker()),
                    processing.sequencingPolicy(name)));
        }
        return targets;
    }

    private static List<String> tables(List<String> projections, boolean switched) {
        List<String> tables = new ArrayList<>();
        for (String name : projections) {
            ReadModelTables.Projection projection = ReadModelTables.named(name);
            tables.addAll(switched ? projection.switched() : projection.scratch());
        }
        return tables;
    }

    /**
     * The handlers of a processor without its dead-letter queue: a rebuild applies every event again, parked ones
     * too, into its own tables, and must neither park in nor skip behind the live processors' queue. An event it
     * cannot apply fails the rebuild, which says so in its status.
     */
    static EventHandlerInvoker withoutDeadLetters(EventHandlerInvoker invoker) {
        if (invoker instanceof org.axonframework.eventhandling.MultiEventHandlerInvoker multi) {
            List<EventHandlerInvoker> delegates = multi.delegates().stream().map(Rebuilder::withoutDeadLetters).toList();
            // One delegate is the usual case: without its wrapper, which asks each delegate whether it supports a
            // reset (a walk of its handlers) before every event it hands on.
            return delegates.size() == 1 ? delegates.get(0)
                    : new org.axonframework.eventhandling.MultiEventHandlerInvoker(delegates);
        }
        if (invoker instanceof org.axonframework.eventhandling.deadletter.DeadLetteringEventHandlerInvoker dead) {
            return org.axonframework.eventhandling.SimpleEventHandlerInvoker.builder()
                    .eventHandlers(dead.eventHandlers())
                    .sequencingPolicy(dead.getSequencingPolicy())
                    .listenerInvocationErrorHandler(dead.getListenerInvocationErrorHandler())
                    .build();
        }
        return invoker;
    }
}
