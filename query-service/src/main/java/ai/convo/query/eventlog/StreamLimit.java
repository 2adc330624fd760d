package ai.convo.query.eventlog;

import ai.convo.http.problem.ApiProblem;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * How many event-log streams (NDJSON and event streams) each organisation may have open at once on this replica, so
 * that one organisation's readers cannot take the server's threads, memory and database reads from the others.
 * Past the limit: 429 with Retry-After and the RateLimit fields of draft-ietf-httpapi-ratelimit-headers (-10).
 */
@Component
class StreamLimit {

    static final String POLICY = "eventlog-streams";
    /** A stream has no window that resets; a slot frees when one ends, which a client cannot see, so it waits a bit. */
    static final int RETRY_AFTER_SECONDS = 5;

    private final int limit;
    private final Map<String, Integer> open = new ConcurrentHashMap<>();

    StreamLimit(@Value("${app.eventlog.streams-per-organisation:4}") int limit, MeterRegistry registry) {
        if (limit < 1) {
            throw new IllegalArgumentException("app.eventlog.streams-per-organisation must be at least 1; got " + limit);
        }
        this.limit = limit;
        Gauge.builder("convo.eventlog.streams", open, streams -> streams.values().stream().mapToInt(i -> i).sum())
                .description("Event-log streams (NDJSON and event streams) open on this replica").register(registry);
    }

    /** A slot for one more stream of the organisation, to close when the stream ends; a 429 problem if it has none. */
    Permit acquire(String organisationId) {
        int[] count = new int[1];
        boolean[] granted = new boolean[1];
        open.compute(organisationId, (id, now) -> {
            int streams = now == null ? 0 : now;
            granted[0] = streams < limit;
            count[0] = granted[0] ? streams + 1 : streams;
            return count[0];
        });
        if (!granted[0]) {
            throw new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, "This organisation already has " + count[0]
                    + " event-log streams open; it may have at most " + limit + " at a time. End one of them or retry "
                    + "after " + RETRY_AFTER_SECONDS + " s.", Map.of("limit", limit, "violated-policies", List.of(POLICY)))
                    .withHeader(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS))
                    .withHeader("RateLimit-Policy", policy())
                    .withHeader("RateLimit", "\"" + POLICY + "\";r=0;t=" + RETRY_AFTER_SECONDS);
        }
        return new Permit(organisationId, limit - count[0]);
    }

    /** The RateLimit-Policy field: a quota of concurrent requests, per organisation. */
    String policy() {
        return "\"" + POLICY + "\";q=" + limit + ";qu=\"concurrent-requests\"";
    }

    /** One open stream's slot; closing it twice frees it once. */
    final class Permit implements AutoCloseable {

        private final String organisationId;
        private final int remaining;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Permit(String organisationId, int remaining) {
            this.organisationId = organisationId;
            this.remaining = remaining;
        }

        /** The RateLimit field of the stream's own answer: how many more the organisation may open. */
        String rateLimit() {
            return "\"" + POLICY + "\";r=" + remaining;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                open.computeIfPresent(organisationId, (id, now) -> now <= 1 ? null : now - 1);
            }
        }
    }
}
