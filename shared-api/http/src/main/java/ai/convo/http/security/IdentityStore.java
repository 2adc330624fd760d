package ai.convo.http.security;

import reactor.core.publisher.Mono;

/** Where authentication looks users and keys up. Empty means "no such (active) credential". */
public interface IdentityStore {

    Mono<ApiPrincipal> findByApiKeyHash(String keyHash);

    /**
     * The key's principal for this request. A service may answer more of what the request needs in the same round
     * trip (the query service: the principal's newest write, for read-your-writes).
     */
    default Mono<ApiPrincipal> findByApiKeyHash(String keyHash, org.springframework.web.server.ServerWebExchange exchange) {
        return findByApiKeyHash(keyHash);
    }

    Mono<PasswordUser> findByEmail(String email);

    Mono<ApiPrincipal> findByUserId(String userId);

    /**
     * The user's membership of a project of their organisation, or empty when they are none. Asked on every request
     * to a project's routes: implementations answer from a cache that a membership change invalidates at once.
     */
    default Mono<Membership> membership(String userId, String projectId) {
        return Mono.empty();
    }

    record PasswordUser(ApiPrincipal principal, String passwordHash) {
    }

    /** roles: the client's project-wide roles; allowedLocales: null for every locale of the project. */
    record Membership(String projectId, java.util.Set<String> roles, java.util.Set<String> allowedLocales) {
    }
}
