package ai.convo.http.access;

import ai.convo.http.media.ProblemWriter;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiAuthenticationFilter;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.IdentityStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Enforces the {@link AccessPolicy} after authentication, before any handler runs, so a refused request stores
 * nothing. A role missing is a 403 naming the roles that would allow it; a project the caller is no member of is the
 * 404 of one that does not exist, so a non-member cannot tell it exists.
 */
public final class AccessFilter implements WebFilter {

    private final AccessPolicy policy;
    private final IdentityStore identities;

    public AccessFilter(AccessPolicy policy, IdentityStore identities) {
        this.policy = policy;
        this.identities = identities;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ApiPrincipal principal = ApiAuthenticationFilter.principal(exchange);
        if (principal == null || principal.isOrganisationAdmin()) {
            return chain.filter(exchange);
        }
        AccessPolicy.Match match = policy.match(exchange.getRequest().getMethod(),
                exchange.getRequest().getPath().value());
        if (match == null) {
            return chain.filter(exchange);
        }
        AccessPolicy.Rule rule = match.rule();
        return switch (rule.scope()) {
            case ANYONE -> chain.filter(exchange);
            case ORGANISATION -> rule.roles().stream().anyMatch(principal.roles()::contains) ? chain.filter(exchange)
                    : ProblemWriter.write(exchange, missing(rule, "organisation-wide", principal.roles()));
            case PROJECT -> project(exchange, chain, principal, match);
        };
    }

    private Mono<Void> project(ServerWebExchange exchange, WebFilterChain chain, ApiPrincipal principal,
                               AccessPolicy.Match match) {
        String projectId = match.variables().get("projectId");
        if (projectId == null) {
            return chain.filter(exchange);
        }
        return identities.membership(principal.userId(), projectId)
                .map(java.util.Optional::of)
                .defaultIfEmpty(java.util.Optional.empty())
                .flatMap(membership -> {
                    if (membership.isEmpty()) {
                        return ProblemWriter.write(exchange, ApiProblem.notFound(
                                AccessPolicy.noun("projectId") + " " + projectId + " does not exist."));
                    }
                    if (match.rule().roles().stream().noneMatch(membership.get().roles()::contains)) {
                        return ProblemWriter.write(exchange, missing(match.rule(), "project-wide",
                                membership.get().roles()));
                    }
                    return chain.filter(exchange);
                });
    }

    static ApiProblem missing(AccessPolicy.Rule rule, String kind, java.util.Set<String> held) {
        List<String> needed = new TreeSet<>(rule.roles()).stream().toList();
        String which = needed.isEmpty() ? "only an organisation administrator (role admin)"
                : "one of the " + kind + " roles " + String.join(", ", needed) + " (or organisation role admin)";
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("requiredRoles", needed.isEmpty() ? List.of("admin") : needed);
        details.put("heldRoles", new TreeSet<>(held).stream().toList());
        details.put("resource", rule.resource());
        details.put("access", rule.kind().name().toLowerCase(java.util.Locale.ROOT));
        return new ApiProblem(HttpStatus.FORBIDDEN, "To " + rule.kind().name().toLowerCase(java.util.Locale.ROOT)
                + " " + rule.resource() + " here you need " + which + "; you hold "
                + (held.isEmpty() ? "none" : String.join(", ", new TreeSet<>(held))) + ".", details);
    }
}
