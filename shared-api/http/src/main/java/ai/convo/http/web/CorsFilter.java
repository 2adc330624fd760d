package ai.convo.http.web;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Wildcard CORS on every response, errors included, and preflights answered before authentication
 * (a browser never sends credentials on a preflight).
 */
public final class CorsFilter implements WebFilter, Ordered {

    static final String EXPOSED = "X-Trace-Id, X-Event-Position, Location, Deprecation, Sunset, Link";
    static final String METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
    static final String DEFAULT_HEADERS =
            "Accept, Content-Type, Cache-Control, Authorization, X-API-Key, x-contactcenter-authorization, X-Event-Position";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        headers.set(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
        ServerHttpRequest request = exchange.getRequest();
        if (HttpMethod.OPTIONS.equals(request.getMethod())
                && request.getHeaders().containsHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD)) {
            String requested = request.getHeaders().getFirst(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS);
            headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, METHODS);
            headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS,
                    requested == null || requested.isBlank() ? DEFAULT_HEADERS : requested);
            headers.set(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "600");
            exchange.getResponse().setStatusCode(HttpStatus.NO_CONTENT);
            return exchange.getResponse().setComplete();
        }
        return chain.filter(exchange);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }
}
