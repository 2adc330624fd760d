package ai.convo.query.consistency;

import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.IdentityStore;
import ai.convo.persistence.R2dbcIdentityStore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The query service's identity store. A read (GET, HEAD) by API key must find its principal and then that
 * principal's newest write (read-your-writes): both are looked up in one statement ({@link LatestWrites#ofApiKey}),
 * which starts after the read arrived, as each did alone. The read then does not look its writes up again
 * ({@link ReadYourWrites#await}). Everything else is {@link R2dbcIdentityStore}'s.
 */
@Primary
@Component
class IdentityWithWrites implements IdentityStore {

    private final R2dbcIdentityStore store;
    private final LatestWrites latest;
    private final boolean perPrincipal;

    IdentityWithWrites(R2dbcIdentityStore store, LatestWrites latest,
                       @Value("${app.consistency.per-principal:true}") boolean perPrincipal) {
        this.store = store;
        this.latest = latest;
        this.perPrincipal = perPrincipal;
    }

    @Override
    public Mono<ApiPrincipal> findByApiKeyHash(String keyHash) {
        return store.findByApiKeyHash(keyHash);
    }

    @Override
    public Mono<ApiPrincipal> findByApiKeyHash(String keyHash, ServerWebExchange exchange) {
        HttpMethod method = exchange.getRequest().getMethod();
        if (!perPrincipal || !(HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method))) {
            return store.findByApiKeyHash(keyHash);
        }
        return latest.ofApiKey(keyHash).map(keyed -> {
            ReadYourWrites.found(exchange, keyed.principal().userId(), keyed.newest());
            return keyed.principal();
        });
    }

    @Override
    public Mono<PasswordUser> findByEmail(String email) {
        return store.findByEmail(email);
    }

    @Override
    public Mono<ApiPrincipal> findByUserId(String userId) {
        return store.findByUserId(userId);
    }

    @Override
    public Mono<Membership> membership(String userId, String projectId) {
        return store.membership(userId, projectId);
    }
}
