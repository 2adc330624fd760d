package ai.convo.http.audit;

import ai.convo.http.security.ApiAuthenticationFilter;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.web.ClientAddress;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Tells the {@link RefusalLog} (if there is one) of every request answered 401 or 403. It runs before Spring
 * Security's chain and looks at the status as the response commits: a handler's 403 becomes a status only in the
 * exception handler, after every filter has finished.
 */
public final class RefusalAudit implements WebFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger(RefusalAudit.class);

    private final ObjectProvider<RefusalLog> logs;
    private final LongSupplier clock;

    public RefusalAudit(ObjectProvider<RefusalLog> logs) {
        this(logs, System::currentTimeMillis);
    }

    RefusalAudit(ObjectProvider<RefusalLog> logs, LongSupplier clock) {
        this.logs = logs;
        this.clock = clock;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        exchange.getResponse().beforeCommit(() -> Mono.fromRunnable(() -> committing(exchange)));
        return chain.filter(exchange);
    }

    private void committing(ServerWebExchange exchange) {
        HttpStatusCode status = exchange.getResponse().getStatusCode();
        if (status == null || (status.value() != 401 && status.value() != 403)) {
            return;
        }
        RefusalLog target = logs.getIfAvailable();
        if (target == null) {
            return;
        }
        try {
            target.refused(refusal(exchange, status.value(), clock.getAsLong()));
        } catch (RuntimeException e) {
            // The audit trail must never cost the caller its answer.
            log.warn("A refused request could not be recorded: {}", e.toString());
        }
    }

    static Refusal refusal(ServerWebExchange exchange, int status, long now) {
        ServerHttpRequest request = exchange.getRequest();
        String organisation = null;
        String user = null;
        String email = null;
        String scheme = null;
        ApiPrincipal principal = ApiAuthenticationFilter.principal(exchange);
        ApiAuthenticationFilter.Attempt attempt = ApiAuthenticationFilter.attempt(exchange);
        if (principal != null) {
            organisation = principal.organisationId();
            user = principal.userId();
            email = principal.email();
            scheme = principal.scheme() == null ? null : principal.scheme().name();
        } else if (attempt != null) {
            organisation = attempt.organisationId();
            user = attempt.userId();
            email = attempt.email();
            scheme = attempt.scheme().name();
        }
        // The path only: the query may carry an api_key.
        return new Refusal(organisation, user, email, request.getMethod().name(), request.getPath().value(), status,
                scheme, ClientAddress.of(request), now);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }
}
