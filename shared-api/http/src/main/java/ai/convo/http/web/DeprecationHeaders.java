package ai.convo.http.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * The State feature is deprecated since release 2026.7.0 (released 2026-07-01). Every response of a state route
 * ({@code {base-path}/v2.0/flows/{flowId}/states} and everything below it), errors and 401s included, says so:
 * <ul>
 *   <li>{@code Deprecation: @1782864000} (RFC 9745: a structured-field date, 2026-07-01T00:00:00Z),</li>
 *   <li>{@code Sunset: Thu, 01 Jul 2027 00:00:00 GMT} (RFC 8594: one year after the deprecation, when the
 *       routes may be removed),</li>
 *   <li>{@code Link: <https://docs.example.com/migrations/states-to-intent-conditions>; rel="deprecation";
 *       type="text/html"}: the migration note (states are replaced by intent conditions).</li>
 * </ul>
 * Both services register this filter, so lists (query service) and writes (command service) answer alike.
 * The headers are set before the chain runs, so no later step (handler, problem writer) can lose them.
 */
public final class DeprecationHeaders implements WebFilter, Ordered {

    public static final Instant STATES_DEPRECATED = Instant.parse("2026-07-01T00:00:00Z");
    public static final Instant STATES_SUNSET = Instant.parse("2027-07-01T00:00:00Z");
    public static final String STATES_MIGRATION_NOTE = "https://docs.example.com/migrations/states-to-intent-conditions";

    static final String DEPRECATION = "Deprecation";
    static final String SUNSET = "Sunset";

    private static final PathPattern STATE_ROUTES = new PathPatternParser().parse("/v2.0/flows/*/states/**");

    private final String basePath;
    private final String deprecation;
    private final String sunset;
    private final String link;

    public DeprecationHeaders(String basePath) {
        this.basePath = basePath == null || basePath.equals("/") ? "" : stripTrailingSlash(basePath);
        this.deprecation = "@" + STATES_DEPRECATED.getEpochSecond();
        // IMF-fixdate (RFC 9110): two-digit day, English names, always GMT.
        this.sunset = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
                .format(STATES_SUNSET.atOffset(ZoneOffset.UTC));
        this.link = "<" + STATES_MIGRATION_NOTE + ">; rel=\"deprecation\"; type=\"text/html\"";
    }

    private static String stripTrailingSlash(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** Whether a request path (with the base path) is one of the deprecated state routes. */
    public boolean isDeprecated(String path) {
        if (!path.startsWith(basePath + "/")) {
            return false;
        }
        return STATE_ROUTES.matches(PathContainer.parsePath(path.substring(basePath.length())));
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (isDeprecated(exchange.getRequest().getPath().value())) {
            HttpHeaders headers = exchange.getResponse().getHeaders();
            headers.set(DEPRECATION, deprecation);
            headers.set(SUNSET, sunset);
            headers.add(HttpHeaders.LINK, link);
        }
        return chain.filter(exchange);
    }

    @Override
    public int getOrder() {
        // After trace ids and CORS, before authentication: a refused call to a deprecated route is told too.
        return Ordered.HIGHEST_PRECEDENCE + 2;
    }
}
