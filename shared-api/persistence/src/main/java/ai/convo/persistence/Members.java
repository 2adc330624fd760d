package ai.convo.persistence;

import ai.convo.http.security.IdentityStore;
import io.r2dbc.spi.Readable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/** A user's membership of the project a resource belongs to, in one statement: the resource's look-up joined. */
public final class Members {

    private Members() {
    }

    /** For each path variable, the membership statement around its project look-up ({@code :id} binds the id). */
    public static Map<String, String> statements(Map<String, String> projectOfResource) {
        Map<String, String> statements = new LinkedHashMap<>();
        projectOfResource.forEach((variable, projectSql) -> statements.put(variable,
                "SELECT project_id, roles, allowed_locales FROM identity_member WHERE user_id = :user "
                        + "AND project_id = (" + projectSql + ")"));
        return Map.copyOf(statements);
    }

    public static Mono<IdentityStore.Membership> read(DatabaseClient db, Map<String, String> statements, String userId,
                                                      String variable, String id) {
        String sql = statements.get(variable);
        if (sql == null) {
            return Mono.error(new IllegalStateException("No project look-up for path variable " + variable));
        }
        return db.sql(sql).bind("user", userId).bind("id", id).map(Members::membership).one();
    }

    static IdentityStore.Membership membership(Readable row) {
        String[] roles = row.get("roles", String[].class);
        String[] locales = row.get("allowed_locales", String[].class);
        return new IdentityStore.Membership(row.get("project_id", String.class),
                Set.copyOf(Arrays.asList(roles == null ? new String[0] : roles)),
                locales == null ? null : Set.copyOf(Arrays.asList(locales)));
    }
}
