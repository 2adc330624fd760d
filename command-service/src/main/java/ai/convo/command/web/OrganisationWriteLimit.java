package ai.convo.command.web;

import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.web.KeyedBulkhead;
import java.time.Duration;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * A bulkhead per organisation around every write of this replica: at most {@code permits} of one organisation's writes
 * run at once, the rest wait in line without a thread or a connection, and only a write that waited too long (or
 * found the line full) is a 429 with Retry-After and the IETF draft's RateLimit headers. The command threads and the
 * pooled connections are shared by every organisation; this keeps any one organisation's burst to a part of them.
 */
@Component
class OrganisationWriteLimit implements WebFilter, Ordered {

    static final String POLICY = "concurrent-writes";

    private final KeyedBulkhead bulkhead;

    OrganisationWriteLimit(@Value("${app.limits.writes-per-organisation:4}") int permits,
                           @Value("${app.limits.writes-waiting-per-organisation:1000}") int waiting,
                           @Value("${app.limits.write-wait:10s}") Duration wait) {
        this.bulkhead = new KeyedBulkhead(permits, waiting, wait);
    }

    @Override
    public int getOrder() {
        return 0; // after Spring Security's chain (-100), which knows the principal
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpMethod method = exchange.getRequest().getMethod();
        if (method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS) {
            return chain.filter(exchange);
        }
        return exchange.getPrincipal()
                .map(principal -> principal instanceof Authentication auth && auth.getPrincipal() instanceof ApiPrincipal api
                        ? api.organisationId() : "")
                .defaultIfEmpty("")
                .flatMap(organisation -> organisation.isEmpty() ? chain.filter(exchange)
                        : bulkhead.run(organisation, chain.filter(exchange).then(Mono.just(true))).then()
                        .onErrorMap(KeyedBulkhead.Full.class, full -> tooMany(full.getMessage())));
    }

    private ApiProblem tooMany(String why) {
        return new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, "Too many writes of this organisation at once: " + why
                + ". At most " + bulkhead.permits() + " run at a time per organisation and the rest wait in line; "
                + "send fewer at once, or retry after the time in Retry-After.",
                Map.of("limit", bulkhead.permits(), "violated-policies", java.util.List.of(POLICY)))
                .withHeader(HttpHeaders.RETRY_AFTER, "1")
                // a quota of concurrent requests, as the event-log streams' (draft-ietf-httpapi-ratelimit-headers)
                .withHeader("RateLimit-Policy", "\"" + POLICY + "\";q=" + bulkhead.permits() + ";qu=\"concurrent-requests\"")
                .withHeader("RateLimit", "\"" + POLICY + "\";r=0;t=1");
    }
}
