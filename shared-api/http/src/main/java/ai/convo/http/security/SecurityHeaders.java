package ai.convo.http.security;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.web.server.header.ServerHttpHeadersWriter;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The response headers of Spring Security's defaults, written in one pass. The default writers are a composite of
 * seven, each copying the response's header names into a case-insensitive set to look for its own: about a tenth of
 * a cached read's CPU. The rules are theirs: each group is written only when the response has none of its headers,
 * no cache headers on a 304, and HSTS only on a request that came in over https.
 */
public final class SecurityHeaders implements ServerHttpHeadersWriter {

    static final String CONTENT_TYPE_OPTIONS = "X-Content-Type-Options";
    static final String FRAME_OPTIONS = "X-Frame-Options";
    static final String XSS_PROTECTION = "X-XSS-Protection";
    static final String REFERRER_POLICY = "Referrer-Policy";
    static final String STRICT_TRANSPORT_SECURITY = "Strict-Transport-Security";

    @Override
    public Mono<Void> writeHttpHeaders(ServerWebExchange exchange) {
        ServerHttpResponse response = exchange.getResponse();
        HttpHeaders headers = response.getHeaders();
        if (!HttpStatus.NOT_MODIFIED.equals(response.getStatusCode()) && !headers.containsHeader(HttpHeaders.CACHE_CONTROL)
                && !headers.containsHeader(HttpHeaders.PRAGMA) && !headers.containsHeader(HttpHeaders.EXPIRES)) {
            headers.set(HttpHeaders.CACHE_CONTROL, "no-cache, no-store, max-age=0, must-revalidate");
            headers.set(HttpHeaders.PRAGMA, "no-cache");
            headers.set(HttpHeaders.EXPIRES, "0");
        }
        setIfAbsent(headers, CONTENT_TYPE_OPTIONS, "nosniff");
        if ("https".equalsIgnoreCase(exchange.getRequest().getURI().getScheme())) {
            setIfAbsent(headers, STRICT_TRANSPORT_SECURITY, "max-age=31536000 ; includeSubDomains");
        }
        setIfAbsent(headers, FRAME_OPTIONS, "DENY");
        setIfAbsent(headers, XSS_PROTECTION, "0");
        setIfAbsent(headers, REFERRER_POLICY, "no-referrer");
        return Mono.empty();
    }

    private static void setIfAbsent(HttpHeaders headers, String name, String value) {
        if (!headers.containsHeader(name)) {
            headers.set(name, value);
        }
    }
}
