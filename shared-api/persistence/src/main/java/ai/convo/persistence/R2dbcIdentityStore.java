package ai.convo.persistence;

import ai.convo.contract.identity.Role;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.AuthScheme;
import ai.convo.http.security.IdentityStore;
import io.r2dbc.spi.Readable;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads the identity tables that the command service keeps in the same transaction as its events. API keys
 * found are cached, since every request of a script presents one: a trigger notifies each service when a key or
 * user changes (V4__identity_change_notifications.sql), which drops the entry, so a revoked key is refused as
 * soon as its revocation commits. Unknown keys are never cached.
 */
@Component
public class R2dbcIdentityStore implements IdentityStore {

    /** A safety bound on how long an entry is trusted, and on how many are kept. */
    static final long MAX_AGE_NANOS = 300_000_000_000L;
    static final int MAX_KEYS = 10_000;

    private record Cached(ApiPrincipal principal, CacheValidity.Stamp stamp, long at) {
    }

    private final DatabaseClient db;
    private final CacheValidity validity;
    private final ConcurrentHashMap<String, Cached> keys = new ConcurrentHashMap<>();

    public R2dbcIdentityStore(DatabaseClient db, EventNotifications notifications) {
        this.db = db;
        this.validity = new CacheValidity(EventNotifications.IDENTITY_CHANGES, notifications);
    }

    @Override
    public Mono<ApiPrincipal> findByApiKeyHash(String keyHash) {
        Cached cached = keys.get(keyHash);
        if (cached != null && System.nanoTime() - cached.at() < MAX_AGE_NANOS && validity.valid(cached.stamp())) {
            return Mono.just(cached.principal());
        }
        CacheValidity.Stamp stamp = validity.stamp(keyHash);
        return db.sql("SELECT u.id, u.organisation_id, u.role, u.email FROM identity_api_key k "
                        + "JOIN identity_user u ON u.id = k.user_id WHERE k.key_hash = :hash AND k.revoked_at IS NULL")
                .bind("hash", keyHash)
                .map(row -> principal(row, AuthScheme.API_KEY_HEADER))
                .one()
                .doOnNext(principal -> {
                    if (stamp != null) {
                        if (keys.size() >= MAX_KEYS) {
                            keys.clear();
                        }
                        keys.put(keyHash, new Cached(principal, stamp, System.nanoTime()));
                    }
                });
    }

    @Override
    public Mono<PasswordUser> findByEmail(String email) {
        return db.sql("SELECT id, organisation_id, role, email, password_hash FROM identity_user WHERE email = :email")
                .bind("email", email)
                .map(row -> new PasswordUser(principal(row, AuthScheme.BASIC), row.get("password_hash", String.class)))
                .one();
    }

    @Override
    public Mono<ApiPrincipal> findByUserId(String userId) {
        return db.sql("SELECT id, organisation_id, role, email FROM identity_user WHERE id = :id")
                .bind("id", userId == null ? "" : userId)
                .map(row -> principal(row, AuthScheme.BEARER))
                .one();
    }

    private static ApiPrincipal principal(Readable row, AuthScheme scheme) {
        return new ApiPrincipal(row.get("id", String.class), row.get("organisation_id", String.class),
                Role.valueOf(row.get("role", String.class)), row.get("email", String.class), scheme);
    }
}
