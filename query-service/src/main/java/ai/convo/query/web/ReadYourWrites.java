package ai.convo.query.web;

import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Lets a client read its own write: a read that carries the X-Event-Position it got from a command waits
 * (at most {@link #MAX_WAIT}) until every projection of this service has processed that event.
 * Segments this node processes are checked in memory; the others through their stored tokens.
 */
@Component
public class ReadYourWrites {

    static final Duration MAX_WAIT = Duration.ofSeconds(2);
    static final Duration POLL = Duration.ofMillis(10);

    private final EventProcessingConfiguration processing;
    private final DatabaseClient db;

    public ReadYourWrites(EventProcessingConfiguration processing, DatabaseClient db) {
        this.processing = processing;
        this.db = db;
    }

    /** Completes when the position is reached or the wait is over; a malformed header is a 400. */
    public Mono<Void> await(ServerWebExchange exchange) {
        String header = exchange.getRequest().getHeaders().getFirst(ApiResponses.EVENT_POSITION);
        if (header == null || header.isBlank()) {
            return Mono.empty();
        }
        long position;
        try {
            position = Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return Mono.error(ApiProblem.badRequest("The " + ApiResponses.EVENT_POSITION
                    + " header must be the integer a write response carried; got '" + header + "'."));
        }
        // Stop polling at the deadline rather than time out: a timeout would cancel a query in flight, and the
        // driver then has to drain or abandon that connection's answer.
        long deadline = System.nanoTime() + MAX_WAIT.toNanos();
        return Mono.defer(() -> reached(position))
                .filter(Boolean::booleanValue)
                .repeatWhenEmpty(repeats -> repeats.takeWhile(i -> System.nanoTime() < deadline).delayElements(POLL))
                .defaultIfEmpty(false)
                .doOnNext(done -> exchange.getResponse().getHeaders()
                        .set("X-Event-Position-Reached", Boolean.toString(done)))
                .then();
    }

    Mono<Boolean> reached(long position) {
        List<PooledStreamingEventProcessor> processors = processing.eventProcessors().values().stream()
                .filter(PooledStreamingEventProcessor.class::isInstance)
                .map(PooledStreamingEventProcessor.class::cast)
                .toList();
        List<String> names = processors.stream().map(PooledStreamingEventProcessor::getName).toList();
        if (names.isEmpty()) {
            return Mono.just(true);
        }
        return db.sql("SELECT processor_name, segment, token FROM token_entry WHERE processor_name IN (:names)")
                .bind("names", names)
                .map(row -> {
                    String name = row.get("processor_name", String.class);
                    Integer segment = row.get("segment", Integer.class);
                    byte[] token = row.get("token", byte[].class);
                    return segmentReached(processors, name, segment, token, position);
                })
                .all()
                // Read every row before deciding: Flux.all would cancel the query at the first false row.
                .collectList()
                .map(reached -> !reached.isEmpty() && reached.stream().allMatch(Boolean::booleanValue));
    }

    private static boolean segmentReached(List<PooledStreamingEventProcessor> processors, String name, int segment,
                                          byte[] storedToken, long position) {
        for (PooledStreamingEventProcessor processor : processors) {
            if (processor.getName().equals(name)) {
                EventTrackerStatus status = processor.processingStatus().get(segment);
                if (status != null && covers(status.getTrackingToken(), status.getCurrentPosition(), position)) {
                    return true;
                }
            }
        }
        return storedCovers(storedToken, position);
    }

    private static boolean covers(TrackingToken token, OptionalLong current, long position) {
        if (current.isEmpty() || current.getAsLong() < position) {
            return false;
        }
        return !(token instanceof GapAwareTrackingToken gapAware) || !gapAware.getGaps().contains(position);
    }

    /** Stored tokens are JSON ({"index":..,"gaps":[..]}), possibly nested in a replay token. */
    static boolean storedCovers(byte[] token, long position) {
        if (token == null) {
            return false;
        }
        JsonNode node = Renderer.JSON.readTree(token);
        for (int depth = 0; node != null && depth < 5; depth++) {
            if (node.has("index")) {
                if (node.get("index").longValue() < position) {
                    return false;
                }
                for (JsonNode gap : node.path("gaps")) {
                    if (gap.longValue() == position) {
                        return false;
                    }
                }
                return true;
            }
            // A replay token has processed only what its currentToken covers (null: nothing yet).
            node = node.get("currentToken");
        }
        return false;
    }
}
