package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A project deleted while a restore (or a copy) of it holds its lookup row: the restore locks the project's row,
 * then its flows; the deletion takes the project's row before any child, so it waits for the restore instead of
 * holding the flows the restore needs next (a deadlock PostgreSQL broke by failing one of them).
 */
class ProjectDeletionRaceApiTest extends FlowApiSupport {

    @Test
    void aDeletionBesideARestoreWaitsForItWithoutTakingTheProjectsFlows() throws Exception {
        // given a project with a flow, and a transaction holding the project's row as a restore does
        String projectId = (String) createProject(ADMIN_KEY, "Deleted beside a restore", "en-US").get("_id");
        createFlow(ADMIN_KEY, projectId, "Main");
        try (Connection restore = dataSource.getConnection()) {
            restore.setAutoCommit(false);
            try (Statement st = restore.createStatement()) {
                st.executeQuery("SELECT project_id FROM cmd_project_lookup WHERE project_id = '" + projectId
                        + "' FOR UPDATE").close();
            }

            // when the project is deleted meanwhile
            CompletableFuture<Integer> deletion = CompletableFuture.supplyAsync(() -> http.delete()
                    .uri("/v2.0/projects/{p}", projectId).header("X-API-Key", ADMIN_KEY)
                    .exchange().returnResult(Void.class).getStatus().value());
            awaitABackendWaitingOnTheProjectsRow();

            // then the restore still takes the project's flows at once, as its next step does
            try (Statement st = restore.createStatement()) {
                st.execute("SET LOCAL lock_timeout = '1ms'");
                try (ResultSet flows = st.executeQuery("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = '"
                        + projectId + "' ORDER BY flow_id FOR UPDATE")) {
                    assertThat(flows.next()).as("the project's flow, not yet deleted").isTrue();
                }
            }
            assertThat(deletion).isNotDone();
            restore.commit();

            // and the deletion goes through once the restore has committed
            assertThat(deletion.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(204);
        }
    }

    private void awaitABackendWaitingOnTheProjectsRow() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                + "AND query LIKE '%cmd_project_lookup%'", Long.class) == 0) {
            assertThat(System.nanoTime()).as("the deletion reached the project's row within 30 s").isLessThan(deadline);
            Thread.sleep(10); // polling the server's view of the deletion, not waiting for time to pass
        }
    }
}
