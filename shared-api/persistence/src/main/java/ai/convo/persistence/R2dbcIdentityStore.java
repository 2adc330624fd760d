package ai.convo.persistence;

import ai.convo.contract.identity.Role;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.AuthScheme;
import ai.convo.http.security.IdentityStore;
import io.r2dbc.spi.Readable;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads the identity tables that the command service keeps in the same transaction as its events. Every request is
 * decided on their current state, never on a cached copy: a revoked key, a disabled or deleted user and a revoked
 * role are refused by the next request that commits after the change, on every replica, with no notification to
 * wait for. Each look-up is one indexed statement (UserAccessCostApiTest measures what it costs a request). With
 * {@code app.identity.coalesced}, API-key look-ups made while one is in flight share the next statement
 * ({@link CoalescedLookup}): each still starts after its request arrived, so the state it finds is as current.
 */
@Component
public class R2dbcIdentityStore implements IdentityStore {

    /** A disabled or deleted user authenticates with nothing, whichever credential they present. */
    private static final String ACTIVE = "AND NOT u.disabled AND u.deleted_at IS NULL";

    private static final String BY_KEY_HASHES = keyPrincipals("CAST(:hashes AS char(64)[])");

    private final DatabaseClient db;
    private final CoalescedLookup<String, ApiPrincipal> byKeyHash;

    public R2dbcIdentityStore(DatabaseClient db) {
        this(db, false);
    }

    @org.springframework.beans.factory.annotation.Autowired
    public R2dbcIdentityStore(DatabaseClient db, @Value("${app.identity.coalesced:false}") boolean coalesced) {
        this.db = db;
        this.byKeyHash = coalesced ? new CoalescedLookup<>(this::byKeyHashes) : null;
    }

    @Override
    public Mono<ApiPrincipal> findByApiKeyHash(String keyHash) {
        if (byKeyHash != null) {
            return byKeyHash.of(keyHash);
        }
        return db.sql("SELECT u.id, u.organisation_id, u.role, u.email, u.roles FROM identity_api_key k "
                        + "JOIN identity_user u ON u.id = k.user_id WHERE k.key_hash = :hash AND k.revoked_at IS NULL "
                        + ACTIVE)
                .bind("hash", keyHash)
                .map(row -> principal(row, AuthScheme.API_KEY_HEADER))
                .one();
    }

    private Mono<Map<String, ApiPrincipal>> byKeyHashes(Set<String> hashes) {
        return db.sql(BY_KEY_HASHES)
                .bind("hashes", hashes.toArray(String[]::new))
                .map(row -> Map.entry(row.get("key_hash", String.class), principal(row, AuthScheme.API_KEY_HEADER)))
                .all()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Override
    public Mono<PasswordUser> findByEmail(String email) {
        // a password set later (identity_password) wins over the registration's; '' matches no password
        return db.sql("SELECT u.id, u.organisation_id, u.role, u.email, u.roles, "
                        + "COALESCE(p.password_hash, u.password_hash) AS password_hash FROM identity_user u "
                        + "LEFT JOIN identity_password p ON p.user_id = u.id WHERE u.email = :email " + ACTIVE)
                .bind("email", email)
                .map(row -> new PasswordUser(principal(row, AuthScheme.BASIC), row.get("password_hash", String.class)))
                .one();
    }

    @Override
    public Mono<ApiPrincipal> findByUserId(String userId) {
        return db.sql("SELECT u.id, u.organisation_id, u.role, u.email, u.roles FROM identity_user u WHERE u.id = :id "
                        + ACTIVE)
                .bind("id", userId == null ? "" : userId)
                .map(row -> principal(row, AuthScheme.BEARER))
                .one();
    }

    /** One primary-key read of the current membership. */
    @Override
    public Mono<Membership> membership(String userId, String projectId) {
        return db.sql("SELECT project_id, roles, allowed_locales FROM identity_member "
                        + "WHERE project_id = :project AND user_id = :user")
                .bind("project", projectId).bind("user", userId)
                .map(Members::membership)
                .one();
    }

    /**
     * The principals of the active keys whose hashes are in {@code hashes} (an array expression): columns key_hash,
     * id, organisation_id, role, email, roles, read by {@link #principal}. For a statement that looks up more.
     */
    public static String keyPrincipals(String hashes) {
        return "SELECT k.key_hash, u.id, u.organisation_id, u.role, u.email, u.roles "
                + "FROM identity_api_key k JOIN identity_user u ON u.id = k.user_id "
                + "WHERE k.key_hash = ANY(" + hashes + ") AND k.revoked_at IS NULL " + ACTIVE;
    }

    /** The principal of a row with the columns of {@link #keyPrincipals}. */
    public static ApiPrincipal principal(Readable row, AuthScheme scheme) {
        String[] roles = row.get("roles", String[].class);
        return new ApiPrincipal(row.get("id", String.class), row.get("organisation_id", String.class),
                Role.valueOf(row.get("role", String.class)), row.get("email", String.class), scheme,
                roles == null ? java.util.Set.of() : java.util.Set.copyOf(java.util.Arrays.asList(roles)));
    }
}
