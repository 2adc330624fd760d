package ai.convo.query.rebuild;

import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.persistence.FencedTokenStore;
import ai.convo.persistence.Periodic;
import ai.convo.query.deadletter.ParkedSequences;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.UnableToClaimTokenException;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Projections far behind the log (the read side back from downtime, or a projection new in a release) catch up the
 * way a rebuild fills its copies, into the live tables: one reader for every projection that is behind, each batch of
 * events applied by the projections' own handlers in one transaction with their tokens, instead of each processor
 * reading the log and applying it on its own. The row-history stamp is the event's own index, from the read.
 * <p>
 * It pauses the processors in this replica and claims every segment of theirs under an owner of its own, so no
 * replica's processor applies those events meanwhile; a processor whose segments another replica holds, that has
 * parked events (dead letters) or whose tokens are not plain positions (a reset) is left to itself. Within
 * {@code app.catch-up.within} positions of the head, or on any failure (the batch rolls back), it gives the claims
 * back and the processors go on event by event from the tokens it stored.
 */
@Component
public class LiveCatchUp extends Periodic {

    private static final Logger log = LoggerFactory.getLogger(LiveCatchUp.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final EventProcessingConfiguration processing;
    private final Rebuilder rebuilder;
    private final ParkedSequences parked;
    private final TokenStore claims;
    private final long threshold;
    private final long within;
    private final int maxGapOffset;
    private final int workers;
    /** One catch-up at a time: the periodic one, or a test's. */
    private final Object checking = new Object();

    public LiveCatchUp(JdbcTemplate jdbc, PlatformTransactionManager transactionManager,
                       EventProcessingConfiguration processing, Rebuilder rebuilder, ParkedSequences parked,
                       ConnectionProvider connections, @Qualifier("serializer") Serializer serializer,
                       TokenSchema tokenSchema,
                       @Value("${app.events.claim-timeout:2s}") Duration claimTimeout,
                       @Value("${app.catch-up.threshold:20000}") long threshold,
                       @Value("${app.catch-up.within:1000}") long within,
                       @Value("${app.events.max-gap-offset:2000}") int maxGapOffset,
                       @Value("${app.catch-up.poll:5s}") Duration poll,
                       @Value("${app.catch-up.workers:2}") int workers) {
        super("projection-catch-up", poll);
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactionManager);
        this.processing = processing;
        this.rebuilder = rebuilder;
        this.parked = parked;
        this.claims = new FencedTokenStore(JdbcTokenStore.builder().connectionProvider(connections)
                .serializer(serializer).claimTimeout(claimTimeout),
                ManagementFactory.getRuntimeMXBean().getName() + "/catch-up", tokenSchema);
        this.threshold = threshold;
        this.within = within;
        this.maxGapOffset = maxGapOffset;
        this.workers = Math.max(1, workers);
    }

    @Override
    protected void runOnce() {
        check();
    }

    /** Catches up the projections that are more than the threshold behind; answers the events it applied. */
    public long check() {
        synchronized (checking) {
            return checkNow();
        }
    }

    private long checkNow() {
        try {
            Long head = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
            if (!isRunning() || head == null) {
                return 0;
            }
            Map<String, Long> behind = new LinkedHashMap<>();
            jdbc.query("SELECT processor_name, min(coalesce((convert_from(token, 'UTF8')::jsonb ->> 'index')::bigint, "
                            + "-1)) FROM token_entry WHERE processor_name = ANY (?) AND (token_type IS NULL OR "
                            + "token_type = ?) GROUP BY processor_name", rs -> {
                        behind.put(rs.getString(1), head - rs.getLong(2));
                    }, (Object) ReadModelTables.PROJECTIONS.keySet().toArray(String[]::new),
                    GapAwareTrackingToken.class.getName());
            List<String> far = behind.entrySet().stream().filter(e -> e.getValue() > threshold)
                    .map(Map.Entry::getKey).filter(this::withoutDeadLetters).toList();
            return far.isEmpty() ? 0 : catchUp(far, head);
        } catch (RuntimeException e) {
            log.warn("Catch-up check failed: {}", e.toString());
            return 0;
        }
    }

    private boolean withoutDeadLetters(String processor) {
        return parked.all().stream().noneMatch(sequence -> sequence.group().equals(processor));
    }

    /**
     * One processor paused here and claimed: the tokens of the segments a worker applies (all, before they are shared
     * out), and the masks of all its segments.
     */
    private record Claimed(String name, StreamingEventProcessor processor, Map<Integer, GapAwareTrackingToken> tokens,
                           Segment[] segments) {

        Claimed(String name, StreamingEventProcessor processor, Map<Integer, GapAwareTrackingToken> tokens) {
            this(name, processor, tokens, Segment.computeSegments(
                    tokens.keySet().stream().mapToInt(Integer::intValue).sorted().toArray()));
        }

        /** Worker {@code worker}'s share of {@code workers}: every workers-th segment. */
        Claimed share(int worker, int workers) {
            Map<Integer, GapAwareTrackingToken> mine = new LinkedHashMap<>();
            for (int i = 0; i < segments.length; i++) {
                if (i % workers == worker) {
                    int id = segments[i].getSegmentId();
                    mine.put(id, tokens.get(id));
                }
            }
            return new Claimed(name, processor, mine, segments);
        }

        /**
         * Whether the event at {@code index}, whose sequence hashes to {@code hash}, needs nothing from this share: its
         * segment is another worker's, or has processed it.
         */
        boolean covers(int hash, long index) {
            for (Segment segment : segments) {
                if (segment.matches(hash)) {
                    GapAwareTrackingToken token = tokens.get(segment.getSegmentId());
                    return token == null || index <= token.getIndex() && !token.getGaps().contains(index);
                }
            }
            return true;
        }
    }

    private long catchUp(List<String> names, long head) {
        List<Claimed> claimed = new ArrayList<>();
        long applied = 0;
        long started = System.nanoTime();
        try {
            for (String name : names) {
                Claimed one = claim(name);
                if (one != null) {
                    claimed.add(one);
                }
            }
            if (claimed.isEmpty()) {
                return 0;
            }
            List<Rebuilder.Target> targets = rebuilder.targets(claimed.stream().map(Claimed::name).toList());
            // Workers share each projection's segments, as its live work packages do: one applies while another's
            // transaction runs in the database. One reader reads and deserializes the log for all of them.
            long from = claimed.stream().flatMap(c -> c.tokens().values().stream())
                    .mapToLong(LiveCatchUp::complete).min().orElse(head);
            ReadAhead<TrackedEventMessage<?>> feed = new ReadAhead<>(workers, 2);
            AtomicLong done = new AtomicLong();
            List<RuntimeException> failures = Workers.run("projection-catch-up", workers + 1, (others, worker) -> {
                if (worker == workers) {
                    read(from, head, feed, others);
                    return;
                }
                List<Claimed> mine = claimed.stream().map(c -> c.share(worker, workers)).toList();
                for (List<TrackedEventMessage<?>> events; !(events = feed.next(worker, others)).isEmpty(); ) {
                    done.addAndGet(apply(events, mine, targets));
                }
            });
            applied = done.get();
            if (!failures.isEmpty()) {
                throw failures.get(0);
            }
            log.info("Caught up {}: {} events applied (once per worker that applied them) in {} ms",
                    claimed.stream().map(Claimed::name).toList(), applied, (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            log.warn("Catch-up of {} stopped; the processors go on from its last batch: {}",
                    claimed.stream().map(Claimed::name).toList(), e.toString());
        } finally {
            for (Claimed one : claimed) {
                one.tokens().keySet().forEach(segment -> release(one.name(), segment));
                if (isRunning()) {
                    one.processor().start();
                }
            }
        }
        return applied;
    }

    /**
     * The log from {@code from} to the head, batch by batch, to every worker; ends within {@code app.catch-up.within}
     * of the head (an event that fills a gap behind it later is the processors' to fetch: their tokens keep the gap).
     */
    private void read(long from, long head, ReadAhead<TrackedEventMessage<?>> feed, BooleanSupplier going) {
        long scanned = from;
        long upTo = head;
        while (isRunning() && going.getAsBoolean()) {
            if (upTo - scanned <= within) {
                Long now = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
                if (now == null || now - scanned <= within) {
                    break;
                }
                upTo = now;
            }
            List<TrackedEventMessage<?>> events = rebuilder.read(scanned, upTo);
            if (events.isEmpty() || !feed.offer(events, going)) {
                break;
            }
            scanned = events.get(events.size() - 1).trackingToken().position().orElseThrow();
        }
        feed.end(going);
    }

    /** Pauses the processor here and claims all its segments; null (and running again) when another replica holds one. */
    private Claimed claim(String name) {
        StreamingEventProcessor processor = processing.eventProcessor(name, StreamingEventProcessor.class).orElse(null);
        if (processor == null) {
            return null;
        }
        processor.shutDown();
        Map<Integer, GapAwareTrackingToken> tokens = new LinkedHashMap<>();
        try {
            for (int segment : transactions.execute(tx -> claims.fetchSegments(name))) {
                TrackingToken token = transactions.execute(tx -> claims.fetchToken(name, segment));
                if (token == null) {
                    // nothing stored yet: the processor would start at the beginning of the log, and so does this
                    token = GapAwareTrackingToken.newInstance(-1, java.util.Set.of());
                }
                if (!(token instanceof GapAwareTrackingToken position)) {
                    throw new UnableToClaimTokenException("Segment " + segment + " of " + name + " holds " + token);
                }
                tokens.put(segment, position);
            }
            return new Claimed(name, processor, tokens);
        } catch (RuntimeException e) {
            log.info("{} is left to its processors: {}", name, e.getMessage());
            tokens.keySet().forEach(segment -> release(name, segment));
            processor.start();
            return null;
        }
    }

    private void release(String name, int segment) {
        try {
            transactions.executeWithoutResult(tx -> claims.releaseClaim(name, segment));
        } catch (RuntimeException e) {
            log.debug("Could not release {}[{}]: {}", name, segment, e.toString());
        }
    }

    /**
     * One batch in one transaction: each event the handlers of the claimed processors whose tokens do not cover it,
     * stamped with its own index, then every segment's token advanced over the events read, as its stream would.
     */
    private long apply(List<TrackedEventMessage<?>> events, List<Claimed> claimed, List<Rebuilder.Target> targets) {
        Map<EventMessage<?>, List<Rebuilder.Target>> work = new IdentityHashMap<>();
        List<EventMessage<?>> ordered = new ArrayList<>();
        for (TrackedEventMessage<?> event : events) {
            long index = event.trackingToken().position().orElseThrow();
            for (int i = 0; i < targets.size(); i++) {
                Rebuilder.Target target = targets.get(i);
                if (!target.handles(event)) {
                    continue;
                }
                if (!claimed.get(i).covers(target.hash(event), index)) {
                    work.computeIfAbsent(event, e -> {
                        ordered.add(e);
                        return new ArrayList<>();
                    }).add(target);
                }
            }
        }
        Map<String, Map<Integer, GapAwareTrackingToken>> advanced = new LinkedHashMap<>();
        for (Claimed one : claimed) {
            Map<Integer, GapAwareTrackingToken> tokens = new LinkedHashMap<>();
            one.tokens().forEach((segment, token) -> tokens.put(segment, advance(token, events)));
            advanced.put(one.name(), tokens);
        }
        for (int attempt = 1; ; attempt++) {
            try {
                applyOnce(ordered, work, advanced);
                break;
            } catch (org.springframework.dao.PessimisticLockingFailureException victim) {
                // two workers' handlers met on a shared row, as two live work packages can: the batch again
                if (attempt >= 5) {
                    throw victim;
                }
            }
        }
        for (Claimed one : claimed) {
            one.tokens().putAll(advanced.get(one.name()));
        }
        return ordered.size();
    }

    private void applyOnce(List<EventMessage<?>> ordered, Map<EventMessage<?>, List<Rebuilder.Target>> work,
                           Map<String, Map<Integer, GapAwareTrackingToken>> advanced) {
        transactions.executeWithoutResult(tx -> {
            // As every projection transaction (ProjectionTransactions): rows and tokens are lost or kept together.
            jdbc.queryForObject("SELECT set_config('synchronous_commit', 'off', true)", String.class);
            if (!ordered.isEmpty()) {
                BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(ordered);
                ResultMessage<?> result = unitOfWork.executeWithResult(() -> {
                    TrackedEventMessage<?> event = (TrackedEventMessage<?>) CurrentUnitOfWork.get().getMessage();
                    if (jdbc instanceof BatchingJdbcTemplate batching) {
                        batching.carriedSetting("CALL stamp_index(?::bigint)", "stamp_index_value(?::bigint)",
                                event.trackingToken().position().orElseThrow());
                    }
                    for (Rebuilder.Target target : work.get(event)) {
                        target.invoker().handle(event, Segment.ROOT_SEGMENT);
                    }
                    return null;
                });
                if (result.isExceptional()) {
                    Throwable cause = result.exceptionResult();
                    throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
                }
            }
            advanced.forEach((name, tokens) -> tokens.forEach((segment, token) -> claims.storeToken(token, name, segment)));
        });
    }

    /** The token after the events, as the event store's stream advances it row by row. */
    private GapAwareTrackingToken advance(GapAwareTrackingToken token, List<TrackedEventMessage<?>> events) {
        GapAwareTrackingToken next = token;
        for (TrackedEventMessage<?> event : events) {
            long index = event.trackingToken().position().orElseThrow();
            if (index > next.getIndex() || next.getGaps().contains(index)) {
                next = next.advanceTo(index, maxGapOffset);
            }
        }
        return next;
    }

    /** The highest index below which the token has everything. */
    private static long complete(GapAwareTrackingToken token) {
        return token.getGaps().isEmpty() ? token.getIndex() : Math.min(token.getIndex(), token.getGaps().first() - 1);
    }
}
