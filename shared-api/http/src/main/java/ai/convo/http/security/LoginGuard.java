package ai.convo.http.security;

import reactor.core.publisher.Mono;

/**
 * Counts password (Basic) sign-ins per e-mail and locks an e-mail that failed too often ({@link LoginLock}), the
 * same whether a user has that e-mail or not. Shared by every replica of every service (it lives in the database).
 * Blocking implementations must move off the event loop themselves.
 */
public interface LoginGuard {

    /** Milliseconds until the e-mail may try again; 0 when it may now. */
    Mono<Long> lockedFor(String email, long now);

    /** A wrong password, or an e-mail no user has ({@code user} null). */
    Mono<Void> failed(String email, ApiPrincipal user, String remoteAddress, long now);

    /** A right password: the e-mail's failures are forgotten. */
    Mono<Void> succeeded(ApiPrincipal user, String remoteAddress, long now);
}
