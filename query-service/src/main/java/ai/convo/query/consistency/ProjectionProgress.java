package ai.convo.query.consistency;

import ai.convo.http.media.Renderer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.WrappedToken;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.readmodel.ReadModelDatabase;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * How far the projections of this service have got, over every segment of every processor, whichever replica
 * holds it: segments this replica holds are read in memory (their status advances after the batch committed),
 * the others from their stored tokens. When this replica holds every segment, no query is needed at all.
 * <p>
 * {@link #safe()} is a position up to which every event is projected (no gap below it in any segment); it only
 * grows, so a read whose required position is at or below it needs no look at all.
 */
@Component
public class ProjectionProgress {

    /** One segment's token: events up to {@code index} are processed, except the {@code gaps}. */
    public record Covered(long index, SortedSet<Long> gaps, String name) {

        Covered(long index, SortedSet<Long> gaps) {
            this(index, gaps, "");
        }


        /** The gaps at or below {@code position}: events not processed yet, or positions no event will ever take. */
        SortedSet<Long> gapsUpTo(long position) {
            return gaps.headSet(position + 1);
        }

        long safe() {
            return gaps.isEmpty() ? index : Math.min(index, gaps.first() - 1);
        }

        /** As {@link #safe()}, passing the gaps known to hold no event. */
        long safeBut(Set<Long> absent) {
            for (long gap : gaps) {
                if (!absent.contains(gap)) {
                    return Math.min(index, gap - 1);
                }
            }
            return index;
        }
    }

    static final Duration POLL = Duration.ofMillis(5);
    /** At most this many gaps go with each look-up (the lowest); a gap not checked is waited for as before. */
    static final int MAX_CHECKED_GAPS = 256;
    private static final Long[] NO_GAPS = {};

    private final EventProcessingConfiguration processing;
    private final DatabaseClient db;
    /** The primary, which has every committed event: a gap there is an event some segment has yet to process. */
    private final DatabaseClient events;
    /**
     * Reads go to a replica: what this process has projected says nothing of what the replica shows yet, so progress
     * is always the replica's copy of the tokens and published progress, which it replays in commit order after the
     * rows they cover.
     */
    private final boolean replica;
    private final AtomicLong safe = new AtomicLong();
    private final AtomicReference<String> pending = new AtomicReference<>("");
    /** Every segment as last read from the stored tokens, by "processor[segment]" (held ones as they were here). */
    private volatile Map<String, Covered> stored = Map.of();

    public ProjectionProgress(EventProcessingConfiguration processing, @ReadModel DatabaseClient db,
                              DatabaseClient events, ReadModelDatabase readModel) {
        this.processing = processing;
        this.db = db;
        this.events = events;
        this.replica = readModel.replica();
    }

    public long safe() {
        return safe.get();
    }

    /**
     * Completes with true once every segment has processed {@code position}, with false at the deadline. It polls
     * rather than times out: a timeout would cancel a query in flight, and the driver then has to drain or abandon
     * that connection's answer.
     */
    public Mono<Boolean> await(long position, long deadlineNanos) {
        return await(position, deadlineNanos, Set.of());
    }

    /** As {@link #await(long, long)}, not waiting for the gaps a look-up made after the read arrived found empty. */
    public Mono<Boolean> await(long position, long deadlineNanos, Set<Long> absent) {
        return Mono.defer(() -> reached(position, absent))
                .filter(Boolean::booleanValue)
                .repeatWhenEmpty(repeats -> repeats.takeWhile(i -> System.nanoTime() < deadlineNanos).delayElements(POLL))
                .defaultIfEmpty(false);
    }

    Mono<Boolean> reached(long position) {
        return reached(position, Set.of());
    }

    private Mono<Boolean> reached(long position, Set<Long> absent) {
        if (position <= safe.get()) {
            return Mono.just(true);
        }
        List<PooledStreamingEventProcessor> processors = processors();
        if (processors.isEmpty()) {
            return Mono.just(true);
        }
        if (!replica && processors.stream().allMatch(ProjectionProgress::holdsEverySegment)) {
            List<Covered> segments = new ArrayList<>();
            processors.forEach(processor -> processor.processingStatus().forEach((segment, status) ->
                    segments.add(named(covered(status), processor.getName() + "[" + segment + "]"))));
            return decide(segments, position, absent);
        }
        // Read every row before deciding: stopping early would cancel the query in flight.
        return segments(processors).collectList().flatMap(segments -> {
            Map<String, Covered> byName = new HashMap<>();
            segments.forEach(segment -> byName.put(segment.name(), segment));
            stored = byName;
            return decide(segments, position, absent);
        });
    }

    /**
     * The gaps a look-up should check: those of the tokens held here and of the stored tokens as last read, the
     * lowest {@link #MAX_CHECKED_GAPS}. Usually none.
     */
    public Long[] openGaps() {
        // every look-up asks, on the thread that answers them all: nothing is allocated while there are no gaps
        TreeSet<Long> gaps = null;
        for (Covered segment : stored.values()) {
            if (!segment.gaps().isEmpty()) {
                gaps = gaps == null ? new TreeSet<>() : gaps;
                gaps.addAll(segment.gaps());
            }
        }
        if (!replica) {
            for (PooledStreamingEventProcessor processor : processors()) {
                for (EventTrackerStatus status : processor.processingStatus().values()) {
                    if (WrappedToken.unwrapLowerBound(status.getTrackingToken()) instanceof GapAwareTrackingToken token
                            && !token.getGaps().isEmpty()) {
                        gaps = gaps == null ? new TreeSet<>() : gaps;
                        gaps.addAll(token.getGaps());
                    }
                }
            }
        }
        return gaps == null ? NO_GAPS : gaps.stream().limit(MAX_CHECKED_GAPS).toArray(Long[]::new);
    }

    /**
     * Which of the {@link #openGaps()} an event fills by now, from the primary: for the lag, where a gap no event fills
     * (an append that rolled back) is no event behind. (Not for reads: theirs is checked after they arrived.)
     */
    public Mono<CheckedGaps> checkGaps() {
        Long[] gaps = openGaps();
        if (gaps.length == 0) {
            return Mono.just(CheckedGaps.NONE);
        }
        return filled(gaps).map(filled -> {
            Set<Long> absent = new HashSet<>(List.of(gaps));
            filled.forEach(absent::remove);
            return checked(absent);
        });
    }

    /** The newest event's global position, on the primary (which has every committed event); 0 for none. */
    public Mono<Long> head() {
        return events.sql("SELECT coalesce(max(global_index), 0) AS head FROM domain_event_entry")
                .map(row -> row.get("head", Long.class)).one();
    }

    /** Which of these gaps an event fills by now, on the primary (which has every committed event). */
    private Mono<List<Long>> filled(Long[] gaps) {
        return events.sql("SELECT global_index FROM domain_event_entry WHERE global_index = ANY(:gaps)")
                .bind("gaps", gaps)
                .map(row -> row.get("global_index", Long.class)).all().collectList();
    }

    /**
     * What a look-up that found no event at {@code absent} (of the gaps it checked) tells a read: the position up to
     * which every event is projected but those. A segment held here counts as it is now; any other as its stored
     * token was last read (an older token is a lower bound: its index is lower, and no gap below it has appeared
     * since). A segment never read counts as nothing: {@link #safe()}.
     */
    public CheckedGaps checked(Set<Long> absent) {
        if (absent.isEmpty()) {
            return CheckedGaps.NONE;
        }
        List<PooledStreamingEventProcessor> processors = processors();
        if (processors.isEmpty()) {
            return new CheckedGaps(absent, safe.get());
        }
        Map<String, Covered> read = stored;
        long upTo = Long.MAX_VALUE;
        for (PooledStreamingEventProcessor processor : processors) {
            Map<Integer, EventTrackerStatus> held = replica ? Map.of() : processor.processingStatus();
            double counted = 0;
            for (EventTrackerStatus status : held.values()) {
                upTo = Math.min(upTo, covered(status).safeBut(absent));
                counted += 1.0 / (status.getSegment().getMask() + 1);
            }
            if (counted == 1.0) {
                continue;
            }
            String prefix = processor.getName() + "[";
            boolean any = false;
            for (Map.Entry<String, Covered> segment : read.entrySet()) {
                if (segment.getKey().startsWith(prefix)
                        && !held.containsKey(Integer.parseInt(segment.getKey().substring(prefix.length(),
                        segment.getKey().length() - 1)))) {
                    upTo = Math.min(upTo, segment.getValue().safeBut(absent));
                    any = true;
                }
            }
            if (!any) {
                return new CheckedGaps(absent, safe.get());
            }
        }
        return new CheckedGaps(absent, Math.max(upTo, safe.get()));
    }

    /**
     * Each processor's position (for its lag): the lowest position up to which all of its segments processed every
     * event, whichever replica holds them. Empty when nothing is stored yet.
     */
    public Mono<Map<String, Long>> positions() {
        return positions(Set.of());
    }

    /** As {@link #positions()}, passing the gaps found to hold no event. */
    public Mono<Map<String, Long>> positions(Set<Long> absent) {
        List<PooledStreamingEventProcessor> processors = processors();
        if (processors.isEmpty()) {
            return Mono.just(Map.of());
        }
        return segments(processors).collectList().map(segments -> {
            Map<String, Long> positions = new TreeMap<>();
            for (Covered segment : segments) {
                String processor = segment.name().substring(0, segment.name().lastIndexOf('['));
                positions.merge(processor, segment.safeBut(absent), Math::min);
            }
            return positions;
        });
    }

    /** Every segment of {@code processors}, named "processor[segment]": held ones in memory, the others stored. */
    private Flux<Covered> segments(List<PooledStreamingEventProcessor> processors) {
        List<String> names = processors.stream().map(PooledStreamingEventProcessor::getName).toList();
        return db.sql("SELECT t.processor_name, t.segment, t.token, p.idx, p.gaps FROM token_entry t "
                        + "LEFT JOIN segment_progress p ON p.processor_name = t.processor_name AND p.segment = t.segment "
                        + "WHERE t.processor_name IN (:names)")
                .bind("names", names)
                .map(row -> named(segment(replica ? List.of() : processors, row.get("processor_name", String.class),
                        row.get("segment", Integer.class), row.get("token", byte[].class),
                        published(row.get("idx", Long.class), row.get("gaps", Long[].class))),
                        row.get("processor_name", String.class) + "[" + row.get("segment", Integer.class) + "]"))
                .all();
    }

    /**
     * Whether every committed event up to {@code position} is processed by every segment: each has read past it, and
     * none of its gaps at or below it is an event that exists. A principal's newest write is not enough to look at:
     * an earlier write of the same principal (from another client of it) may have committed after a later one was
     * read, and is then a gap below the newest. A gap no event fills (the position of an append that rolled back, a
     * conflict decided again) is not waited for.
     */
    Mono<Boolean> decide(List<Covered> segments, long position) {
        return decide(segments, position, Set.of());
    }

    /** As {@link #decide(List, long)}; the gaps in {@code absent} were found empty after the read arrived. */
    Mono<Boolean> decide(List<Covered> segments, long position, Set<Long> absent) {
        if (segments.isEmpty()) {
            return Mono.just(false);
        }
        long lowest = Long.MAX_VALUE;
        List<String> behind = new ArrayList<>();
        TreeSet<Long> open = new TreeSet<>();
        for (Covered segment : segments) {
            lowest = Math.min(lowest, segment.safe());
            if (segment.index() < position) {
                behind.add(segment.name() + " at " + segment.index());
            }
            open.addAll(segment.gapsUpTo(position));
        }
        open.removeAll(absent);
        safe.accumulateAndGet(lowest, Math::max);
        if (!behind.isEmpty()) {
            pending.set("position " + position + ": not yet read by " + behind);
            return Mono.just(false);
        }
        if (open.isEmpty()) {
            return Mono.just(true);
        }
        return filled(open.toArray(Long[]::new)).map(found -> {
            if (found.isEmpty()) {
                return true;
            }
            List<String> waiting = segments.stream()
                    .filter(segment -> found.stream().anyMatch(segment.gaps()::contains))
                    .map(segment -> segment.name() + " gaps " + segment.gaps().stream()
                            .filter(found::contains).toList())
                    .toList();
            pending.set("position " + position + ": committed events " + found + " still to process in "
                    + waiting);
            return false;
        });
    }

    /** Why the last position asked for was not reached (for the log of a read that gave up). */
    public String pending() {
        return pending.get();
    }

    private List<PooledStreamingEventProcessor> processors() {
        return processing.eventProcessors().values().stream()
                .filter(PooledStreamingEventProcessor.class::isInstance)
                .map(PooledStreamingEventProcessor.class::cast)
                .toList();
    }

    /** Whether the segments this replica holds add up to the whole processor (segment masks are 2^n - 1). */
    private static boolean holdsEverySegment(PooledStreamingEventProcessor processor) {
        double held = 0;
        for (EventTrackerStatus status : processor.processingStatus().values()) {
            held += 1.0 / (status.getSegment().getMask() + 1);
        }
        return held == 1.0;
    }

    /**
     * A segment held here is read in memory; another's from its stored token or the progress its holder published
     * (V17), whichever is further: both are true lower bounds.
     */
    private static Covered segment(List<PooledStreamingEventProcessor> processors, String name, int segment,
                                   byte[] stored, Covered published) {
        for (PooledStreamingEventProcessor processor : processors) {
            if (processor.getName().equals(name)) {
                EventTrackerStatus status = processor.processingStatus().get(segment);
                if (status != null) {
                    return covered(status);
                }
            }
        }
        Covered fromToken = stored(stored);
        return published != null && published.index() > fromToken.index() ? published : fromToken;
    }

    private static Covered named(Covered covered, String name) {
        return new Covered(covered.index(), covered.gaps(), name);
    }

    private static Covered published(Long index, Long[] gaps) {
        return index == null ? null : new Covered(index, new TreeSet<>(gaps == null ? List.of() : List.of(gaps)));
    }

    static Covered covered(EventTrackerStatus status) {
        OptionalLong current = status.getCurrentPosition();
        if (current.isEmpty()) {
            return new Covered(-1, new TreeSet<>());
        }
        TrackingToken token = WrappedToken.unwrapLowerBound(status.getTrackingToken());
        SortedSet<Long> gaps = token instanceof GapAwareTrackingToken gapAware ? gapAware.getGaps() : new TreeSet<>();
        return new Covered(current.getAsLong(), gaps);
    }

    /** Stored tokens are JSON ({"index":..,"gaps":[..]}), possibly nested in a replay token. */
    public static Covered stored(byte[] token) {
        if (token == null) {
            return new Covered(-1, new TreeSet<>());
        }
        JsonNode node = Renderer.JSON.readTree(token);
        for (int depth = 0; node != null && depth < 5; depth++) {
            if (node.has("index")) {
                TreeSet<Long> gaps = new TreeSet<>();
                for (JsonNode gap : node.path("gaps")) {
                    gaps.add(gap.longValue());
                }
                return new Covered(node.get("index").longValue(), gaps);
            }
            // A replay token has processed only what its currentToken covers (null: nothing yet).
            node = node.get("currentToken");
        }
        return new Covered(-1, new TreeSet<>());
    }
}
