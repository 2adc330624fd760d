package ai.convo.http.security;

import reactor.core.publisher.Mono;

/**
 * Counts password (Basic) sign-ins per e-mail and locks an e-mail that failed too often ({@link LoginLock}), the
 * same whether a user has that e-mail or not. Shared by every replica of every service (it lives in the database).
 * Blocking implementations must move off the event loop themselves.
 *
 * <p>A password is checked only under a claim: {@link #claim} reserves the check before the hash is compared, and
 * exactly one of {@link #failed}, {@link #succeeded} or {@link #abandoned} settles it. Checks in flight count as
 * failures to come, so however many sign-ins arrive at once, no more are checked than the lock lets through.
 */
public interface LoginGuard {

    /**
     * Claims one password check for the e-mail: 0 when it may be made now (and must then be settled), else the
     * milliseconds to wait, the e-mail being locked or the checks in flight able to lock it.
     */
    Mono<Long> claim(String email, long now);

    /** A claimed check found a wrong password, or an e-mail no user has ({@code user} null). */
    Mono<Void> failed(String email, ApiPrincipal user, String remoteAddress, long now);

    /** A claimed check found the right password: the e-mail's failures are forgotten. */
    Mono<Void> succeeded(ApiPrincipal user, String remoteAddress, long now);

    /** A claimed check that could not be made (the user could not be looked up): given back, counting nothing. */
    Mono<Void> abandoned(String email, long now);
}
