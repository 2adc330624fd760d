package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.consistency.PrincipalWritePruning;
import ai.convo.persistence.PrincipalKeys;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.ConnectionCallback;

/**
 * Every acknowledged write is recorded under its principal in the write's own transaction (principal_write), at
 * the newest position the transaction wrote, so the principal's reads on any query replica can wait for it.
 */
class PrincipalWritesApiTest extends ApiTestBase {

    @Autowired
    PrincipalWritePruning pruning;

    private long newestOf(String key) {
        Long position = jdbc.queryForObject("SELECT max(position) FROM principal_write WHERE principal_key = ?",
                Long.class, key);
        return position == null ? 0 : position;
    }

    private long newestEvent() {
        Long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        return position == null ? 0 : position;
    }

    @Test
    void anAcknowledgedWriteIsRecordedUnderItsPrincipalAtItsOwnPosition() {
        String projectId = (String) createProject(ADMIN_KEY, "Recorded", "en-US").get("_id");

        String position = http.post().uri("/v2.0/locales")
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "Second", "nluLanguage", "de-DE"))
                .exchange()
                .expectStatus().isCreated()
                .returnResult(String.class).getResponseHeaders().getFirst("X-Event-Position");

        assertThat(newestOf(adminUserId())).isEqualTo(Long.parseLong(position));
    }

    @Test
    void anUpdateIsRecordedUnderItsPrincipalAtItsOwnPosition() {
        String locale = (String) createProject(ADMIN_KEY, "Updated", "en-US").get("primaryLocaleReference");

        String position = http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Updated again"))
                .exchange().expectStatus().isOk()
                .returnResult(String.class).getResponseHeaders().getFirst("X-Event-Position");

        assertThat(newestOf(adminUserId())).isEqualTo(Long.parseLong(position)).isEqualTo(newestEvent());
    }

    @Test
    void aRefusedWriteRecordsNothing() {
        String projectId = (String) createProject(ADMIN_KEY, "Refused", "en-US").get("_id");
        long before = newestOf(adminUserId());

        http.post().uri("/v2.0/locales")
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "", "nluLanguage", "de-DE"))
                .exchange()
                .expectStatus().isBadRequest();

        assertThat(newestOf(adminUserId())).isEqualTo(before);
    }

    @Test
    void eachPrincipalHasItsOwnRecordWhicheverSchemeItUses() {
        String otherKey = otherOrganisationKey("recorded-other@example.com");
        String otherUser = jdbc.queryForObject("SELECT id FROM identity_user WHERE email = ?", String.class,
                "recorded-other@example.com");

        createProject(otherKey, "Theirs", "en-US");
        long theirs = newestOf(otherUser);
        http.post().uri("/v2.0/projects")
                .header("Authorization", basic("recorded-other@example.com", "password-recorded-other@example.com"))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Theirs by Basic", "locale", "en-US"))
                .exchange()
                .expectStatus().isCreated();

        assertThat(theirs).isPositive();
        assertThat(newestOf(otherUser)).isGreaterThan(theirs).isEqualTo(newestEvent());
    }

    @Test
    void aSystemMessageIsAlsoRecordedForEveryReaderOfThePublicRoute() {
        http.post().uri("/management/v2.0/system/createsystemmessage")
                .header("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "Maintenance tonight", "until", 2_000_000_000L))
                .exchange()
                .expectStatus().isCreated();

        long position = newestEvent();
        assertThat(newestOf(PrincipalKeys.SYSTEM_MESSAGE)).isEqualTo(position);
        assertThat(newestOf(adminUserId())).isEqualTo(position);
    }

    @Test
    void supersededRecordsArePrunedAndTheNewestStays() {
        createProject(ADMIN_KEY, "Pruned 1", "en-US");
        createProject(ADMIN_KEY, "Pruned 2", "en-US");
        long newest = newestOf(adminUserId());

        pruning.prune();

        List<Long> left = jdbc.queryForList("SELECT position FROM principal_write WHERE principal_key = ?",
                Long.class, adminUserId());
        assertThat(left).containsExactly(newest);
    }

    @Test
    void givenAPlannerThatPrefersNestedLoops_thenThePruneStillWorksOutEachNewestOnceBeforeAnyJoin() {
        // Hash and merge joins costed out: the planner joins by nested loop, as the live one did from a just-pruned
        // table's statistics. Whatever the join, the aggregate must run once, before it, not once per row inside it.
        List<String> plan = jdbc.execute((ConnectionCallback<List<String>>) connection -> {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET LOCAL enable_hashjoin = off");
                statement.execute("SET LOCAL enable_mergejoin = off");
                List<String> lines = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery("EXPLAIN " + PrincipalWritePruning.PRUNE)) {
                    while (rows.next()) {
                        lines.add(rows.getString(1));
                    }
                }
                return lines;
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        });

        int cte = indexOf(plan, "CTE newest");
        int aggregate = indexOf(plan, "Aggregate");
        int join = indexOf(plan, "Nested Loop");
        assertThat(cte).as("plan %s", plan).isNotNegative();
        assertThat(aggregate).as("plan %s", plan).isGreaterThan(cte).isLessThan(join);
        assertThat(plan.stream().filter(line -> line.contains("Aggregate"))).as("plan %s", plan).hasSize(1);
    }

    private static int indexOf(List<String> plan, String node) {
        for (int i = 0; i < plan.size(); i++) {
            if (plan.get(i).contains(node)) {
                return i;
            }
        }
        return -1;
    }
}
