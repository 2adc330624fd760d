package ai.convo.persistence;

import ai.convo.contract.identity.Role;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.AuthScheme;
import ai.convo.http.security.IdentityStore;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads the identity tables that the command service keeps in the same transaction as its events, so a
 * revoked key is refused by every service the moment the revoke returns.
 */
@Component
public class R2dbcIdentityStore implements IdentityStore {

    private final DatabaseClient db;

    public R2dbcIdentityStore(DatabaseClient db) {
        this.db = db;
    }

    @Override
    public Mono<ApiPrincipal> findByApiKeyHash(String keyHash) {
        return db.sql("SELECT u.id, u.organisation_id, u.role, u.email FROM identity_api_key k "
                        + "JOIN identity_user u ON u.id = k.user_id WHERE k.key_hash = :hash AND k.revoked_at IS NULL")
                .bind("hash", keyHash)
                .map(row -> principal(row, AuthScheme.API_KEY_HEADER))
                .one();
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
