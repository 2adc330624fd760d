package ai.convo.query.web;

import ai.convo.http.security.ApiAuthenticationFilter;
import ai.convo.http.security.ApiPrincipal;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Answers a read that says what an earlier one said (organisation, Accept, path, query) from the {@link ResponseCache}
 * before Spring's dispatch: handler mapping, argument resolution and result handling were a sixth of a cached read's
 * time, and would lead to the same cached answer. The last filter, so authentication, access and read-your-writes
 * have run; a miss goes on to the controller.
 */
@Component
class CachedAnswers implements WebFilter, Ordered {

    private final ResponseCache cache;

    CachedAnswers(ResponseCache cache) {
        this.cache = cache;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ApiPrincipal principal = ApiAuthenticationFilter.principal(exchange);
        if (principal == null || !HttpMethod.GET.equals(exchange.getRequest().getMethod())) {
            return chain.filter(exchange);
        }
        ResponseEntity<byte[]> answer = cache.current(exchange, principal.organisationId());
        if (answer == null) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.OK);
        response.getHeaders().addAll(answer.getHeaders());
        response.getHeaders().setContentLength(answer.getBody().length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(answer.getBody())));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
