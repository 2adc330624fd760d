package ai.convo.http.web;

import java.security.SecureRandom;
import java.util.HexFormat;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/** Gives every request a trace id (response header and problem bodies), so a user can quote it to support. */
public final class TraceIds implements WebFilter, Ordered {

    public static final String HEADER = "X-Trace-Id";
    private static final String ATTRIBUTE = TraceIds.class.getName();
    private static final SecureRandom RANDOM = new SecureRandom();

    public static String of(ServerWebExchange exchange) {
        Object id = exchange.getAttribute(ATTRIBUTE);
        if (id instanceof String s) {
            return s;
        }
        String fresh = newId();
        exchange.getAttributes().put(ATTRIBUTE, fresh);
        exchange.getResponse().getHeaders().set(HEADER, fresh);
        return fresh;
    }

    static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        of(exchange);
        return chain.filter(exchange);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
