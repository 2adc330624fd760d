package ai.convo.http.security;

import ai.convo.http.media.ProblemWriter;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.web.ClientAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Authenticates a request with the first credential it presents that its route accepts. Credentials of a
 * scheme the route does not accept are a 401 that names the accepted ones; an invalid credential is a 401 and
 * never falls through to another scheme.
 */
public final class ApiAuthenticationFilter implements WebFilter {

    static final String CONTACT_CENTER_HEADER = "x-contactcenter-authorization";
    /** Exchange attributes for the refusal audit, which runs outside Spring Security's chain and its context. */
    static final String PRINCIPAL = ApiAuthenticationFilter.class.getName() + ".principal";
    static final String ATTEMPT = ApiAuthenticationFilter.class.getName() + ".attempt";

    /**
     * The credential a request tried: its scheme and, for Basic, the e-mail (and that user's ids when the e-mail
     * is a user's). Never the secret itself, nor a hash of it.
     */
    public record Attempt(AuthScheme scheme, String email, String userId, String organisationId) {
    }

    private record Credential(AuthScheme scheme, String value) {
    }

    /** Checked against when an e-mail has no user, so a wrong e-mail costs the time a wrong password does. */
    private static final String NO_USER_HASH = Secrets.PASSWORDS.encode("no user has this e-mail");

    private final RoutePolicy policy;
    private final IdentityStore identities;
    private final ReactiveJwtDecoder bearerDecoder;
    private final ReactiveJwtDecoder contactCenterDecoder;
    private final LoginGuard guard;
    /** The password checks under way in this process, each answering every request that presents its guess. */
    private final ConcurrentHashMap<Guess, CompletableFuture<Checked>> checking = new ConcurrentHashMap<>();

    public ApiAuthenticationFilter(RoutePolicy policy, IdentityStore identities,
                                   ReactiveJwtDecoder bearerDecoder, ReactiveJwtDecoder contactCenterDecoder) {
        this(policy, identities, bearerDecoder, contactCenterDecoder, null);
    }

    /** With a {@link LoginGuard} (null: password sign-ins are not counted). */
    public ApiAuthenticationFilter(RoutePolicy policy, IdentityStore identities, ReactiveJwtDecoder bearerDecoder,
                                   ReactiveJwtDecoder contactCenterDecoder, LoginGuard guard) {
        this.policy = policy;
        this.identities = identities;
        this.bearerDecoder = bearerDecoder;
        this.contactCenterDecoder = contactCenterDecoder;
        this.guard = guard;
    }

    /** The principal this filter authenticated for the exchange, if any. */
    public static ApiPrincipal principal(ServerWebExchange exchange) {
        return exchange.getAttribute(PRINCIPAL);
    }

    /** The credential the exchange presented to this filter, if it got that far. */
    public static Attempt attempt(ServerWebExchange exchange) {
        return exchange.getAttribute(ATTEMPT);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        HttpMethod method = request.getMethod();
        String path = request.getPath().value();
        if (policy.isPublic(method, path)) {
            return chain.filter(exchange);
        }
        Set<AuthScheme> allowed = policy.allowed(method, path);
        List<Credential> presented;
        try {
            presented = credentials(request);
        } catch (ApiProblem malformed) {
            return ProblemWriter.write(exchange, malformed);
        }
        if (presented.isEmpty()) {
            return ProblemWriter.write(exchange, ApiProblem.unauthorized(
                    "Authentication is required. This operation accepts " + describe(allowed) + "."));
        }
        Optional<Credential> usable = presented.stream().filter(c -> allowed.contains(c.scheme())).findFirst();
        if (usable.isEmpty()) {
            exchange.getAttributes().put(ATTEMPT, new Attempt(presented.get(0).scheme(), null, null, null));
            return ProblemWriter.write(exchange, ApiProblem.unauthorized("This operation does not accept "
                    + describe(presented.stream().map(Credential::scheme).collect(Collectors.toCollection(
                            () -> java.util.EnumSet.noneOf(AuthScheme.class))))
                    + "; it accepts " + describe(allowed) + "."));
        }
        Credential credential = usable.get();
        exchange.getAttributes().put(ATTEMPT, new Attempt(credential.scheme(), null, null, null));
        return authenticate(exchange, credential)
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .onErrorResume(ApiProblem.class, problem -> ProblemWriter.write(exchange, problem).then(Mono.empty()))
                .flatMap(principal -> principal.isEmpty()
                        ? ProblemWriter.write(exchange, ApiProblem.unauthorized(invalid(credential.scheme())))
                        : authenticated(exchange, chain, principal.get()));
    }

    private static Mono<Void> authenticated(ServerWebExchange exchange, WebFilterChain chain, ApiPrincipal principal) {
        exchange.getAttributes().put(PRINCIPAL, principal);
        return chain.filter(exchange)
                .contextWrite(ReactiveSecurityContextHolder.withAuthentication(new ApiAuthentication(principal)));
    }

    private List<Credential> credentials(ServerHttpRequest request) {
        HttpHeaders headers = request.getHeaders();
        List<Credential> found = new ArrayList<>();
        String headerKey = headers.getFirst("X-API-Key");
        if (headerKey != null && !headerKey.isBlank()) {
            found.add(new Credential(AuthScheme.API_KEY_HEADER, headerKey.trim()));
        }
        String queryKey = request.getQueryParams().getFirst("api_key");
        if (queryKey != null && !queryKey.isBlank()) {
            found.add(new Credential(AuthScheme.API_KEY_QUERY, queryKey.trim()));
        }
        String contactCenter = headers.getFirst(CONTACT_CENTER_HEADER);
        if (contactCenter != null && !contactCenter.isBlank()) {
            found.add(new Credential(AuthScheme.CONTACT_CENTER, bearerValue(contactCenter, CONTACT_CENTER_HEADER)));
        }
        String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null && !authorization.isBlank()) {
            String lower = authorization.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("basic ")) {
                found.add(new Credential(AuthScheme.BASIC, authorization.substring(6).trim()));
            } else if (lower.startsWith("bearer ")) {
                found.add(new Credential(AuthScheme.BEARER, authorization.substring(7).trim()));
            } else {
                throw ApiProblem.unauthorized("The Authorization header must use the Basic or Bearer scheme.");
            }
        }
        return found;
    }

    private static String bearerValue(String header, String name) {
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7) || header.substring(7).isBlank()) {
            throw ApiProblem.unauthorized("The " + name + " header must be 'Bearer ' followed by a token.");
        }
        return header.substring(7).trim();
    }

    private Mono<ApiPrincipal> authenticate(ServerWebExchange exchange, Credential credential) {
        return switch (credential.scheme()) {
            case API_KEY_HEADER, API_KEY_QUERY -> identities.findByApiKeyHash(Secrets.hashApiKey(credential.value()), exchange)
                    .map(p -> p.via(credential.scheme()));
            case BASIC -> basic(exchange, credential.value());
            case BEARER -> jwt(bearerDecoder, credential, "Bearer access tokens are not configured on this server.");
            case CONTACT_CENTER -> jwt(contactCenterDecoder, credential,
                    "Contact-center tokens are not configured on this server.");
        };
    }

    private Mono<ApiPrincipal> basic(ServerWebExchange exchange, String encoded) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Mono.error(ApiProblem.unauthorized("The Basic credentials are not valid base64."));
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return Mono.error(ApiProblem.unauthorized("The Basic credentials must be email:password."));
        }
        String email = decoded.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT);
        String password = decoded.substring(colon + 1);
        // A user name that is no e-mail address may be a key pasted into the wrong field: not kept.
        exchange.getAttributes().put(ATTEMPT, new Attempt(AuthScheme.BASIC, looksLikeEmail(email) ? email : null,
                null, null));
        // The same e-mail and password already being checked (a script's parallel requests): its answer is this one's,
        // one check and one claim for all of them.
        Guess guess = new Guess(email, password);
        CompletableFuture<Checked> check = new CompletableFuture<>();
        CompletableFuture<Checked> running = checking.putIfAbsent(guess, check);
        if (running == null) {
            running = check;
            check(guess, ClientAddress.of(exchange.getRequest())).toFuture()
                    .whenComplete((checked, error) -> {
                        checking.remove(guess, check);
                        if (error != null) {
                            check.completeExceptionally(error);
                        } else {
                            check.complete(checked);
                        }
                    });
        }
        // A client that goes away does not stop the check: its claim is settled, not left to expire.
        return Mono.fromFuture(running, true).flatMap(checked -> {
            // Guessing a user's password is an event of the user's organisation.
            checked.user().ifPresent(user -> exchange.getAttributes().put(ATTEMPT, new Attempt(AuthScheme.BASIC, email,
                    user.principal().userId(), user.principal().organisationId())));
            return checked.right() ? Mono.just(checked.user().get().principal().via(AuthScheme.BASIC))
                    : Mono.<ApiPrincipal>empty();
        });
    }

    /** A password check's e-mail and password, and what it found: the e-mail's user, and whether it was right. */
    private record Guess(String email, String password) {
        @Override
        public String toString() {
            return "Guess[" + email + "]"; // never the password
        }
    }

    private record Checked(Optional<IdentityStore.PasswordUser> user, boolean right) {
    }

    /**
     * Claims the check (a 429 when the e-mail is locked or the checks in flight could lock it), compares the password
     * and settles the claim. The claim comes first, so no burst reads the lock before its failures are counted.
     */
    private Mono<Checked> check(Guess guess, String remote) {
        long now = System.currentTimeMillis();
        Mono<Long> claim = guard == null ? Mono.just(0L) : guard.claim(guess.email(), now);
        return claim.flatMap(lockedFor -> lockedFor > 0 ? Mono.error(locked(lockedFor)) : identities.findByEmail(
                        guess.email())
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                // a check not made counts nothing (there is no answer to learn from)
                .onErrorResume(error -> guard == null ? Mono.error(error)
                        : guard.abandoned(guess.email(), now).onErrorResume(e -> Mono.empty()).then(Mono.error(error)))
                // BCrypt is deliberately slow: keep it off the event loop.
                .publishOn(Schedulers.boundedElastic())
                .flatMap(user -> {
                    boolean right = Secrets.PASSWORDS.matches(guess.password(),
                            user.map(IdentityStore.PasswordUser::passwordHash).orElse(NO_USER_HASH)) && user.isPresent();
                    Checked checked = new Checked(user, right);
                    if (guard == null) {
                        return Mono.just(checked);
                    }
                    ApiPrincipal principal = user.map(u -> u.principal().via(AuthScheme.BASIC)).orElse(null);
                    return (right ? guard.succeeded(principal, remote, now)
                            : guard.failed(guess.email(), principal, remote, now)).thenReturn(checked);
                }));
    }

    /** The same answer whether a user has the e-mail or not: a lock says nothing about who exists. */
    private static ApiProblem locked(long lockedForMillis) {
        long seconds = LoginLock.retryAfterSeconds(lockedForMillis);
        return new ApiProblem(org.springframework.http.HttpStatus.TOO_MANY_REQUESTS, "Too many failed sign-ins with "
                + "this e-mail: it is locked for " + seconds + " more second(s), longer after each further failure. "
                + "Wait, use an API key, or ask an administrator to reset its failed sign-ins "
                + "(resetFailedLoginAttempts).", java.util.Map.of("retryAfterSeconds", seconds))
                .withHeader(HttpHeaders.RETRY_AFTER, String.valueOf(seconds));
    }

    static boolean looksLikeEmail(String value) {
        int at = value.indexOf('@');
        return at > 0 && at < value.length() - 1 && value.chars().noneMatch(Character::isWhitespace);
    }

    private Mono<ApiPrincipal> jwt(ReactiveJwtDecoder decoder, Credential credential, String notConfigured) {
        if (decoder == null) {
            return Mono.error(ApiProblem.unauthorized(notConfigured));
        }
        return decoder.decode(credential.value())
                .onErrorMap(JwtException.class, e -> ApiProblem.unauthorized(
                        "The token is not valid: it is malformed, expired, or not signed by the configured issuer."))
                .map(Jwt::getSubject)
                .flatMap(identities::findByUserId)
                .map(p -> p.via(credential.scheme()));
    }

    private static String invalid(AuthScheme scheme) {
        return switch (scheme) {
            case API_KEY_HEADER, API_KEY_QUERY -> "The API key is not valid or has been revoked.";
            case BASIC -> "The email or password is wrong.";
            case BEARER, CONTACT_CENTER -> "The token's subject is not a user of this platform.";
        };
    }

    static String describe(Set<AuthScheme> schemes) {
        return schemes.stream().map(AuthScheme::description).collect(Collectors.joining(", "));
    }
}
