package ai.convo.http.security;

import reactor.core.publisher.Mono;

/** Where authentication looks users and keys up. Empty means "no such (active) credential". */
public interface IdentityStore {

    Mono<ApiPrincipal> findByApiKeyHash(String keyHash);

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
