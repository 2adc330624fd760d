package ai.convo.http.security;

import reactor.core.publisher.Mono;

/** Where authentication looks users and keys up. Empty means "no such (active) credential". */
public interface IdentityStore {

    Mono<ApiPrincipal> findByApiKeyHash(String keyHash);

    Mono<PasswordUser> findByEmail(String email);

    Mono<ApiPrincipal> findByUserId(String userId);

    record PasswordUser(ApiPrincipal principal, String passwordHash) {
    }
}
