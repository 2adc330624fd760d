package ai.convo.query.consistency;

import ai.convo.http.security.ApiPrincipal;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import ai.convo.http.security.ApiAuthenticationFilter;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Makes every authenticated read wait for its principal's own writes, before any handler runs, so no read route
 * can forget to. Ordered after Spring Security's filter chain (order -100), whose authentication filter puts the
 * principal on the exchange. Public reads (no principal) wait only where their handler names a public key.
 */
@Component
public class ReadYourWritesFilter implements WebFilter, Ordered {

    private final ReadYourWrites consistency;

    public ReadYourWritesFilter(ReadYourWrites consistency) {
        this.consistency = consistency;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpMethod method = exchange.getRequest().getMethod();
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return chain.filter(exchange);
        }
        // The principal the authentication filter put on the exchange (the one in the security context).
        ApiPrincipal principal = ApiAuthenticationFilter.principal(exchange);
        if (principal == null) {
            return chain.filter(exchange);
        }
        return consistency.await(exchange, List.of(principal.userId())).then(Mono.defer(() -> chain.filter(exchange)));
    }

    @Override
    public int getOrder() {
        return 0;
    }
}
