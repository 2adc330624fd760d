package ai.convo.query.consistency;

import ai.convo.http.media.Renderer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
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
import ai.convo.query.web.ReadModel;
import ai.convo.query.web.ReadModelDatabase;
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
    }

    static final Duration POLL = Duration.ofMillis(5);

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
        return Mono.defer(() -> reached(position))
                .filter(Boolean::booleanValue)
                .repeatWhenEmpty(repeats -> repeats.takeWhile(i -> System.nanoTime() < deadlineNanos).delayElements(POLL))
                .defaultIfEmpty(false);
    }

    Mono<Boolean> reached(long position) {
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
            return decide(segments, position);
        }
        // Read every row before deciding: stopping early would cancel the query in flight.
        return segments(processors).collectList().flatMap(segments -> decide(segments, position));
    }

    /**
     * Each processor's position (for its lag): the lowest position up to which all of its segments processed every
     * event, whichever replica holds them. Empty when nothing is stored yet.
     */
    public Mono<Map<String, Long>> positions() {
        List<PooledStreamingEventProcessor> processors = processors();
        if (processors.isEmpty()) {
            return Mono.just(Map.of());
        }
        return segments(processors).collectList().map(segments -> {
            Map<String, Long> positions = new TreeMap<>();
            for (Covered segment : segments) {
                String processor = segment.name().substring(0, segment.name().lastIndexOf('['));
                positions.merge(processor, segment.safe(), Math::min);
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
        safe.accumulateAndGet(lowest, Math::max);
        if (!behind.isEmpty()) {
            pending.set("position " + position + ": not yet read by " + behind);
            return Mono.just(false);
        }
        if (open.isEmpty()) {
            return Mono.just(true);
        }
        return events.sql("SELECT global_index FROM domain_event_entry WHERE global_index = ANY(:gaps)")
                .bind("gaps", open.toArray(Long[]::new))
                .map(row -> row.get("global_index", Long.class)).all().collectList()
                .map(found -> {
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
