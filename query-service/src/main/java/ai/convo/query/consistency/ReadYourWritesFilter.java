package ai.convo.query.consistency;

import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
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
class ReadYourWritesFilter implements WebFilter, Ordered {

    private final ReadYourWrites consistency;
    private final ParkedWrites parked;

    public ReadYourWritesFilter(ReadYourWrites consistency, ParkedWrites parked) {
        this.consistency = consistency;
        this.parked = parked;
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
        return consistency.await(exchange, List.of(principal.userId()))
                .then(Mono.defer(() -> {
                    parked(exchange, principal);
                    return chain.filter(exchange);
                }));
    }

    /**
     * A read that must reflect an event of its organisation a projection parked (issue 37) would show a row without
     * it: a 409 that says so, with the trace id of the parked write, instead. Not a 5xx: clients retry those, and
     * retrying does not help until a system administrator retried or evicted the sequence. Their management routes
     * always answer, so they can follow their own recovery work.
     */
    private void parked(ServerWebExchange exchange, ApiPrincipal principal) {
        long position = ReadYourWrites.required(exchange).position();
        if (position <= 0 || exchange.getRequest().getPath().pathWithinApplication().value().startsWith("/management/")) {
            return;
        }
        parked.blocking(principal.organisationId(), position).ifPresent(sequence -> {
            throw new ApiProblem(HttpStatus.CONFLICT, "write-not-projected", "A change this read must reflect (trace "
                    + sequence.traceId() + ", event position " + sequence.position() + ") could not be applied to "
                    + "the read model and is parked; nothing stale is shown. A system administrator has been told "
                    + "(dead letters of " + sequence.group() + "); reads answer again once they retried or evicted it.",
                    Map.of("parkedTraceId", sequence.traceId(), "eventPosition", sequence.position(),
                            "processingGroup", sequence.group()));
        });
    }

    @Override
    public int getOrder() {
        return 0;
    }
}
