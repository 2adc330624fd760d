package ai.convo.query.consistency;

import ai.convo.http.media.ApiResponses;
import ai.convo.http.param.WholeNumbers;
import ai.convo.http.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Every read reflects every write its principal was answered a 2xx for, and any X-Event-Position it carries: it
 * looks up the principal's newest write ({@link LatestWrites}) and waits until every projection has processed it
 * ({@link ProjectionProgress}), at most {@code app.consistency.max-wait}; past that it is a 503 with Retry-After,
 * never stale data. A read that waited says so in {@code Server-Timing: ryw;dur=<ms>}; the position a read
 * reflects at least is in {@code Server-Timing: ryw-position;desc=<position>}.
 */
@Component
public class ReadYourWrites {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReadYourWrites.class);

    /**
     * What a read was made to reflect: the position it required (0: nothing), and until when it may wait for what
     * is derived from projections later (feedback reports).
     */
    public record Required(long position, long deadlineNanos, CheckedGaps gaps) {
    }

    static final String ATTRIBUTE = ReadYourWrites.class.getName() + ".required";
    /** The newest write under a principal key, looked up with the read's credentials ({@link IdentityWithWrites}). */
    private static final String FOUND = ReadYourWrites.class.getName() + ".found";

    private record Found(String key, LatestWrites.Newest newest) {
    }
    private static final Required NOTHING = new Required(0, 0, CheckedGaps.NONE);

    private final LatestWrites latest;
    private final ProjectionProgress progress;
    private final Duration maxWait;
    private final boolean perPrincipal;
    /** How long reads waited for their principal's writes: none (already projected), reached, gave_up (a 503). */
    private final Timer notWaited;
    private final Timer reachedAfterWait;
    private final Timer gaveUp;

    public ReadYourWrites(LatestWrites latest, ProjectionProgress progress, MeterRegistry meters,
                          @Value("${app.consistency.max-wait:5s}") Duration maxWait,
                          @Value("${app.consistency.per-principal:true}") boolean perPrincipal) {
        this.latest = latest;
        this.progress = progress;
        this.maxWait = maxWait;
        this.perPrincipal = perPrincipal;
        this.notWaited = waits(meters, "none");
        this.reachedAfterWait = waits(meters, "reached");
        this.gaveUp = waits(meters, "gave_up");
    }

    private static Timer waits(MeterRegistry meters, String outcome) {
        return Timer.builder("convo.reads.waited").tag("outcome", outcome)
                .description("How long a read waited for the projections to reflect its principal's latest writes")
                .register(meters);
    }

    /** Records what this request's credential look-up found of its principal's newest write. */
    static void found(ServerWebExchange exchange, String key, LatestWrites.Newest newest) {
        exchange.getAttributes().put(FOUND, new Found(key, newest));
    }

    /** What this request was made to reflect (nothing when it was not awaited). */
    public static Required required(ServerWebExchange exchange) {
        return exchange.getAttributeOrDefault(ATTRIBUTE, NOTHING);
    }

    /**
     * The position at or below which every event is projected for this read, what a cached answer stamped now
     * reflects: {@link ProjectionProgress#safe()}, or past gaps its own look-up found empty (which a cached answer may
     * then rely on only for reads whose look-up finds them empty too).
     */
    public long safe(Required required) {
        return Math.max(progress.safe(), required.gaps().projectedUpTo());
    }

    /**
     * Completes when the read may go on: the newest write under {@code keys} (the principal's user id, or a public
     * key) and the request's X-Event-Position are projected. A malformed header is a 400; a wait past the bound
     * is a 503. Done once per request.
     */
    public Mono<Void> await(ServerWebExchange exchange, List<String> keys) {
        if (exchange.getAttributes().containsKey(ATTRIBUTE)) {
            return Mono.empty();
        }
        long asked = headerPosition(exchange);
        long started = System.nanoTime();
        // A look-up that fails (the database unreachable) is a 503 the client may retry, not a 500.
        Found found = exchange.getAttribute(FOUND);
        Mono<LatestWrites.Newest> newest = !perPrincipal ? Mono.just(new LatestWrites.Newest(0, CheckedGaps.NONE))
                : found != null && keys.size() == 1 && keys.get(0).equals(found.key()) ? Mono.just(found.newest())
                : latest.of(keys).onErrorMap(error -> !(error instanceof ApiProblem),
                        error -> new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "The read model cannot be reached at "
                                + "the moment, so this read cannot be made to reflect your latest changes; retry "
                                + "shortly.", Map.of()).withHeader("Retry-After", "1"));
        return newest.flatMap(written -> {
            long position = Math.max(asked, written.position());
            CheckedGaps gaps = written.gaps();
            Required required = new Required(position, started + maxWait.toNanos(), gaps);
            exchange.getAttributes().put(ATTRIBUTE, required);
            if (position > 0) {
                // the event position this read reflects at least (what X-Event-Position of a write answer says)
                exchange.getResponse().getHeaders().add("Server-Timing", "ryw-position;desc=" + position);
            }
            if (position <= safe(required)) {
                reached(exchange, asked);
                notWaited.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                return Mono.<Void>empty();
            }
            // a position no write has been answered with yet would only be waited for in vain: refused at once
            Mono<Void> answered = asked > safe(required) ? progress.head().flatMap(head -> asked > head
                    ? Mono.<Void>error(beyondHead(asked, head)) : Mono.<Void>empty()) : Mono.empty();
            return answered.then(Mono.defer(() -> progress.await(position, started + maxWait.toNanos(), gaps.absent())))
                    .flatMap(done -> {
                        if (!done) {
                            gaveUp.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                            return Mono.error(catchingUp(position));
                        }
                        reached(exchange, asked);
                        reachedAfterWait.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                        double waited = (System.nanoTime() - started) / 1_000_000.0;
                        exchange.getResponse().getHeaders().add("Server-Timing",
                                String.format(java.util.Locale.ROOT, "ryw;dur=%.1f", waited));
                        return Mono.<Void>empty();
                    });
        });
    }

    /**
     * Completes when every projection has reached global {@code position} (a read of the past, asOf, must not miss
     * a version a lagging projection has yet to write); a 503 past the bound, as for the caller's own writes.
     */
    public Mono<Void> awaitPosition(long position) {
        if (position <= progress.safe()) {
            return Mono.empty();
        }
        return progress.await(position, System.nanoTime() + maxWait.toNanos())
                .flatMap(done -> done ? Mono.<Void>empty() : Mono.error(catchingUp(position)));
    }

    /** The 503 of a read that could not reflect {@code position} in time. */
    public ApiProblem catchingUp(long position) {
        log.warn("A read gave up waiting for event position {} after {} ms: {}", position, maxWait.toMillis(),
                progress.pending());
        long seconds = Math.max(1, maxWait.toSeconds() / 5);
        return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "The read model is catching up with a change this "
                + "request must reflect (event position " + position + ") and did not reach it within "
                + maxWait.toMillis() + " ms. Nothing stale is shown: retry after " + seconds + " s.",
                Map.of("eventPosition", position, "processedUpTo", progress.safe()))
                .withHeader("Retry-After", Long.toString(seconds));
    }

    private static void reached(ServerWebExchange exchange, long asked) {
        if (asked > 0) {
            exchange.getResponse().getHeaders().set("X-Event-Position-Reached", "true");
        }
    }

    private static long headerPosition(ServerWebExchange exchange) {
        String header = exchange.getRequest().getHeaders().getFirst(ApiResponses.EVENT_POSITION);
        if (header == null || header.isBlank()) {
            return 0;
        }
        Long position = WholeNumbers.parse(header.trim());
        if (position == null) {
            throw ApiProblem.badRequest("The " + ApiResponses.EVENT_POSITION + " header must be the whole number (ASCII "
                    + "digits) a write response carried; got '" + (header.length() > 40 ? header.substring(0, 40)
                    + "..." : header) + "'.", Map.of(ApiResponses.EVENT_POSITION, "not a position"));
        }
        return position;
    }

    private static ApiProblem beyondHead(long asked, long head) {
        return ApiProblem.badRequest("The " + ApiResponses.EVENT_POSITION + " header asks for position " + asked
                + ", beyond the head of the event log (" + head + "): no write was answered with it. Send back the "
                + ApiResponses.EVENT_POSITION + " a write response carried.",
                Map.of(ApiResponses.EVENT_POSITION, asked, "head", head));
    }
}
