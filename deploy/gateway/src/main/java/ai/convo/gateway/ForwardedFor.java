package ai.convo.gateway;

import java.net.InetSocketAddress;
import java.util.List;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Appends the address the gateway took the request from to {@code X-Forwarded-For}. The services take the last
 * entry as the client (refusal audit, login and refusal throttling), so it must be the one the gateway saw: Spring
 * Cloud Gateway's own filter appends only when the peer is a configured trusted proxy, and otherwise forwards the
 * client's header untouched, which let a client name any address and spread its refusals over made-up sources.
 * Earlier entries (whatever the client or a proxy in front sent) are kept for information.
 */
final class ForwardedFor implements HttpHeadersFilter, Ordered {

    static final String HEADER = "X-Forwarded-For";

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        InetSocketAddress peer = exchange.getRequest().getRemoteAddress();
        if (peer == null) {
            return input;
        }
        String address = peer.getAddress() != null ? peer.getAddress().getHostAddress() : peer.getHostString();
        List<String> sent = input.get(HEADER);
        HttpHeaders forwarded = new HttpHeaders();
        forwarded.putAll(input);
        forwarded.set(HEADER, sent == null || sent.isEmpty() ? address : String.join(", ", sent) + ", " + address);
        return forwarded;
    }

    @Override
    public int getOrder() {
        return 0;
    }
}
