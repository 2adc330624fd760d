package ai.convo.http.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.handler.ExceptionHandlingWebHandler;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;

/**
 * {@code http.server.requests}, with the tags of Spring's own observation of it (method, uri, status, outcome,
 * exception, error), so the metrics of docs/operations.md and an operator's dashboards stay as they were. One filter records it
 * in place of Spring's per-request Observation (HttpConfiguration hands the handler a no-op registry): that
 * machinery starts and stops an observation through its handlers and looks a meter up by freshly built tags on
 * every request, several times the cost of this filter on a trivial route.
 *
 * <p>A request is recorded once: when its handling has ended and its response is committed, whichever comes last
 * (an error's problem body is written after the filters have ended); a request the client abandons first is recorded
 * then, with status and outcome UNKNOWN, as Spring does.
 */
public final class RequestMetrics implements WebFilter, Ordered {

    private record Key(String method, String uri, String status, String exception) {
    }

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Key, Timer> timers = new ConcurrentHashMap<>();

    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE; // around every other filter, Spring Security's included
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Recording recording = new Recording(exchange, System.nanoTime());
        exchange.getResponse().beforeCommit(() -> {
            recording.run();
            return Mono.empty();
        });
        return chain.filter(exchange).doOnTerminate(recording).doOnCancel(recording::abandoned);
    }

    /** Counts the two ends (handling ended, response committed); the second records. Abandoning records at once. */
    private final class Recording extends AtomicInteger implements Runnable {

        private static final int RECORDED = 100;
        private final ServerWebExchange exchange;
        private final long started;

        Recording(ServerWebExchange exchange, long started) {
            this.exchange = exchange;
            this.started = started;
        }

        @Override
        public void run() { // the response commits, or the filters' handling ended
            if (incrementAndGet() == 2) {
                record(exchange, started, false);
            }
        }

        void abandoned() {
            if (getAndSet(RECORDED) < 2) {
                record(exchange, started, true);
            }
        }
    }

    private void record(ServerWebExchange exchange, long started, boolean abandoned) {
        long elapsed = System.nanoTime() - started;
        HttpStatusCode status = abandoned ? null : exchange.getResponse().getStatusCode();
        Object handled = exchange.getAttribute(ExceptionHandlingWebHandler.HANDLED_WEB_EXCEPTION);
        Key key = new Key(exchange.getRequest().getMethod().name(), uri(exchange, status),
                status == null ? "UNKNOWN" : Integer.toString(status.value()),
                handled == null ? "none" : handled.getClass().getSimpleName());
        timers.computeIfAbsent(key, this::timer).record(elapsed, TimeUnit.NANOSECONDS);
    }

    private Timer timer(Key key) {
        return Timer.builder("http.server.requests").description("HTTP server request processing time")
                .tag("method", key.method()).tag("uri", key.uri()).tag("status", key.status())
                .tag("outcome", outcome(key.status())).tag("exception", key.exception()).tag("error", key.exception())
                .register(registry);
    }

    /** The route template that matched, as Spring's convention names it; no template: what the status says. */
    static String uri(ServerWebExchange exchange, HttpStatusCode status) {
        Object pattern = exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (pattern instanceof PathPattern path) {
            return path.getPatternString().isEmpty() ? "root" : path.getPatternString();
        }
        if (status != null && status.is3xxRedirection()) {
            return "REDIRECTION";
        }
        return status != null && status.value() == 404 ? "NOT_FOUND" : "UNKNOWN";
    }

    static String outcome(String status) {
        return switch (status.charAt(0)) {
            case '1' -> "INFORMATIONAL";
            case '2' -> "SUCCESS";
            case '3' -> "REDIRECTION";
            case '4' -> "CLIENT_ERROR";
            case '5' -> "SERVER_ERROR";
            default -> "UNKNOWN";
        };
    }
}
