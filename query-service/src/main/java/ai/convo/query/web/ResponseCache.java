package ai.convo.query.web;

import ai.convo.http.media.ApiMedia;
import ai.convo.persistence.CacheValidity;
import ai.convo.persistence.EventNotifications;
import ai.convo.query.consistency.ConsistencyChannel;
import ai.convo.query.consistency.ReadYourWrites;
import ai.convo.query.readmodel.ReadModelDatabase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Rendered answers of hot lists, kept until a read model they were read from changes. Scripts poll the same
 * pages over and over; each page costs several queries, a hit costs none. The tables an answer comes from raise
 * a notification per changed tag (e.g. {@code flow:<id>}) when they commit (V15), which makes every answer
 * with that tag stale (see {@link CacheValidity} for why a change during the read is never missed). The
 * notifications arrive over the {@link ConsistencyChannel}, so every change committed before a read arrived has
 * invalidated its answers before the read looks here. Keys hold the organisation, so a cached answer is only ever
 * served within the organisation that read it.
 */
@Component
public class ResponseCache {

    /**
     * {@code reflects}: every event up to this position is in the answer (see {@link #answer}), but for any that
     * commits later at one of the {@code assumed} gaps (found empty when the answer was read).
     */
    private record Entry(ResponseEntity<byte[]> response, CacheValidity.Stamp stamp, long at, long reflects,
                         Set<Long> assumed, Object route) {

        /** Still current, and reflecting what the read must: the same test on either path to it. */
        boolean serves(ReadYourWrites.Required required, long maxAgeNanos, CacheValidity validity) {
            return reflects(required) && System.nanoTime() - at < maxAgeNanos && validity.valid(stamp);
        }

        /** Whether it reflects every write a read must see: its gaps below them must be empty for that read too. */
        boolean reflects(ReadYourWrites.Required required) {
            if (reflects < required.position()) {
                return false;
            }
            for (long gap : assumed) {
                if (gap <= required.position() && !required.gaps().absent().contains(gap)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final String REFLECTS_AT_MOST = ResponseCache.class.getName() + ".reflectsAtMost";

    private final CacheValidity validity;
    private final ReadYourWrites consistency;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    /**
     * The same entries by what the request said (organisation, Accept, path, query), for {@link CachedAnswers},
     * which looks before Spring's dispatch: a request saying the same reaches the same controller, negotiates the same
     * media type and asks the same key.
     */
    private final ConcurrentHashMap<String, Entry> byRequest = new ConcurrentHashMap<>();
    private final boolean enabled;
    private final int maxEntries;
    private final long maxAgeNanos;

    /** Answers by where they came from: the cache before Spring's dispatch, the cache in the controller, a read. */
    private final Counter beforeDispatch;
    private final Counter inController;
    private final Counter reads;

    public ResponseCache(ConsistencyChannel notifications, ReadYourWrites consistency, ReadModelDatabase readModel,
                         MeterRegistry meters,
                         @Value("${app.lists.cache.enabled:true}") boolean enabled,
                         @Value("${app.lists.cache.max-entries:2000}") int maxEntries,
                         @Value("${app.lists.cache.max-age-seconds:60}") long maxAgeSeconds) {
        this.validity = new CacheValidity(EventNotifications.READ_MODEL_CHANGES, notifications);
        this.consistency = consistency;
        // Changes are announced when the primary commits them; a replica may not show them yet, so an answer read
        // there after the announcement could be older than it and stay cached: with a replica, nothing is cached.
        this.enabled = enabled && !readModel.replica();
        this.maxEntries = maxEntries;
        this.maxAgeNanos = maxAgeSeconds * 1_000_000_000L;
        this.beforeDispatch = answers(meters, "cache_before_dispatch");
        this.inController = answers(meters, "cache");
        this.reads = answers(meters, "read");
    }

    private static Counter answers(MeterRegistry meters, String source) {
        return Counter.builder("convo.lists.cached.answers").tag("source", source)
                .description("Answers of cached lists by where they came from").register(meters);
    }

    /**
     * The cached answer to this request if still current and it reflects every write the request must see, else
     * {@code read}'s answer (cached when it is a 200). An answer reflects the events up to the position that was
     * safe ({@link ReadYourWrites#safe}: no gap below it but those the read's own look-up found empty) when its stamp
     * was taken, since the read came after; a read that must reflect a later write of its principal, or whose own
     * look-up finds one of those gaps filled, reads anew.
     */
    public Mono<ResponseEntity<byte[]>> answer(ServerWebExchange exchange, String organisationId, ApiMedia media,
                                               String[] tags, Supplier<Mono<ResponseEntity<byte[]>>> read) {
        if (!enabled) {
            return read.get();
        }
        ReadYourWrites.Required required = ReadYourWrites.required(exchange);
        String key = key(exchange, organisationId, media);
        Entry entry = entries.get(key);
        if (entry != null && entry.serves(required, maxAgeNanos, validity)) {
            inController.increment();
            return Mono.just(entry.response());
        }
        reads.increment();
        long safe = consistency.safe(required);
        CacheValidity.Stamp stamp = validity.stamp(tags);
        return read.get().doOnNext(response -> {
            if (stamp != null && response.getStatusCode().value() == 200) {
                if (entries.size() >= maxEntries) {
                    entries.clear();
                    byRequest.clear();
                }
                long reflects = Math.min(safe, exchange.getAttributeOrDefault(REFLECTS_AT_MOST, Long.MAX_VALUE));
                Set<Long> assumed = required.gaps().absent().stream().filter(gap -> gap <= reflects)
                        .collect(Collectors.toUnmodifiableSet());
                Entry stored = new Entry(response, stamp, System.nanoTime(), reflects, assumed,
                        exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE));
                entries.put(key, stored);
                byRequest.put(requestKey(exchange, organisationId), stored);
            }
        });
    }

    /**
     * The cached answer to a request that says what an earlier one said, before Spring's dispatch, if it is current
     * and reflects every write the request must see (as {@link #answer} would serve it); null otherwise. Puts the
     * route the answer was read through on the exchange, where the request metrics look for it.
     */
    ResponseEntity<byte[]> current(ServerWebExchange exchange, String organisationId) {
        if (!enabled) {
            return null;
        }
        Entry entry = byRequest.get(requestKey(exchange, organisationId));
        if (entry == null || !entry.serves(ReadYourWrites.required(exchange), maxAgeNanos, validity)) {
            return null;
        }
        if (entry.route() != null) {
            exchange.getAttributes().put(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, entry.route());
        }
        beforeDispatch.increment();
        return entry.response();
    }

    /** Tells the cache that this answer reflects no more than {@code position} (part of it was derived later). */
    public static void reflectsAtMost(ServerWebExchange exchange, long position) {
        long current = exchange.getAttributeOrDefault(REFLECTS_AT_MOST, Long.MAX_VALUE);
        exchange.getAttributes().put(REFLECTS_AT_MOST, Math.min(current, position));
    }

    /**
     * Organisation, media type, path and the query parameters without api_key, in their order (the HAL links
     * repeat them in that order). Each part is length-prefixed, so no two requests share a key.
     */
    static String key(ServerWebExchange exchange, String organisationId, ApiMedia media) {
        return request(new StringBuilder(organisationId).append('|').append(media.name()), exchange);
    }

    /** Organisation, every Accept header as sent, then path and query as in {@link #key}. */
    static String requestKey(ServerWebExchange exchange, String organisationId) {
        StringBuilder key = new StringBuilder(organisationId);
        List<String> accept = exchange.getRequest().getHeaders().get(HttpHeaders.ACCEPT);
        if (accept != null) {
            for (String value : accept) {
                part(key, value);
            }
        }
        return request(key.append("|;"), exchange);
    }

    private static String request(StringBuilder key, ServerWebExchange exchange) {
        part(key, exchange.getRequest().getPath().value());
        MultiValueMap<String, String> query = exchange.getRequest().getQueryParams();
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            if (parameter.getKey().equals("api_key")) {
                continue;
            }
            for (String value : parameter.getValue()) {
                part(key, parameter.getKey());
                if (value == null) {
                    key.append("|-");
                } else {
                    part(key, value);
                }
            }
        }
        return key.toString();
    }

    private static StringBuilder part(StringBuilder key, String value) {
        return key.append('|').append(value.length()).append(':').append(value);
    }
}
