package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * Snapshots end to end through the real task machinery: the routes submit with the real TaskSubmissions, the real
 * TaskRunner claims and runs the real work, and the task's state is read from {@code task_run} (the command side's
 * mirror of the task; GET /v2.0/tasks is the query side's). Cancel goes through POST /v2.0/tasks/{id}/cancel.
 */
class SnapshotTaskFlowApiTest extends SnapshotWorkSupport {

    private static final long DEADLINE_MILLIS = 15_000;

    @Autowired
    DataSource dataSource;

    // ---- helpers

    private static void eventually(BooleanSupplier condition, String what) {
        long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("Timed out waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted waiting for " + what, e);
            }
        }
    }

    private String status(String taskId) {
        List<String> rows = jdbc.queryForList("SELECT status FROM task_run WHERE task_id = ?", String.class, taskId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Waits for a terminal status and answers it, so a wrong end (error instead of done) fails with its name. */
    private String awaitEnd(String taskId) {
        eventually(() -> List.of("done", "error", "cancelled").contains(status(taskId)), "task " + taskId + " to end");
        return status(taskId);
    }

    private String failReason(String taskId) {
        List<String> reasons = jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND payload_type LIKE '%TaskFailedEvent'", String.class, taskId);
        return reasons.isEmpty() ? "" : reasons.get(0);
    }

    private void awaitDone(String taskId) {
        assertThat(awaitEnd(taskId)).as("end of task %s %s", taskId, failReason(taskId)).isEqualTo("done");
    }

    /** POSTs, expects 202 with the Task record and its Location; answers the record. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> accepted(String uri, Map<String, Object> body) {
        var result = http.post().uri(uri).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body).exchange()
                .expectStatus().isAccepted()
                .expectBody(Map.class).returnResult();
        Map<String, Object> task = result.getResponseBody();
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/tasks/" + task.get("_id"));
        return task;
    }

    /** POST /v2.0/snapshots, runs to done through the runner; answers the snapshot id. */
    @SuppressWarnings("unchecked")
    private String snapshotThroughRunner(String projectId, String name) {
        Map<String, Object> task = accepted("/v2.0/snapshots", Map.of("projectId", projectId, "name", name));
        assertThat(task).containsEntry("type", "createSnapshot").containsEntry("status", "queued");
        awaitDone((String) task.get("_id"));
        return (String) ((Map<String, Object>) task.get("parameters")).get("snapshotId");
    }

    private String requestRestore(String snapshotId, String projectId) {
        Map<String, Object> task = accepted("/v2.0/snapshots/" + snapshotId + "/restore", Map.of("projectId", projectId));
        assertThat(task).containsEntry("type", "restoreSnapshot");
        return (String) task.get("_id");
    }

    /** Events of everything but tasks and snapshot bookkeeping: the project's own aggregates, old and new. */
    private long projectEventCount() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type NOT LIKE "
                + "'ai.convo.contract.task.%' AND payload_type NOT LIKE 'ai.convo.contract.snapshot.%'", Long.class);
        return count == null ? 0 : count;
    }

    private String onlyFunctionId(String projectId, int index) {
        return jdbc.queryForList("SELECT function_id FROM cmd_snapshot_function WHERE project_id = ? "
                + "ORDER BY function_id", String.class, projectId).get(index);
    }

    private List<String> intentNames(String projectId) {
        return jdbc.queryForList("SELECT i.name FROM cmd_intent_lookup i JOIN cmd_flow_lookup f ON f.flow_id = i.flow_id "
                + "WHERE f.project_id = ?", String.class, projectId);
    }

    private List<String> tokenLabels(String projectId) {
        return jdbc.queryForList("SELECT label FROM cmd_token_lookup WHERE project_id = ?", String.class, projectId);
    }

    // ---- tests

    @Test
    void givenAChangedProject_whenItsSnapshotIsRestoredThroughTheRunner_thenANewSnapshotHasTheSameHash() {
        // given: a project with tokens, functions, flows with states and intents with sentences in two locales
        Built built = buildProject("Task flow");
        String p = built.projectId();
        String first = snapshotThroughRunner(p, "Before changes");
        // and: renamed, added and deleted resources
        created(HttpMethod.PATCH, "/v2.0/flows/" + built.flowId() + "/intents/" + built.parentIntentId(),
                Map.of("name", "Renamed"));
        created(HttpMethod.PATCH, "/v2.0/locales/" + built.germanId(), Map.of("name", "Deutsch"));
        created(HttpMethod.POST, "/v2.0/projects/" + p + "/snippets", Map.of("label", "added", "type", "custom", "script", "a"));
        created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", p, "name", "Added flow"));
        send(HttpMethod.DELETE, "/v2.0/functions/" + onlyFunctionId(p, 0), null).expectStatus().isNoContent();
        String changed = snapshotThroughRunner(p, "After changes");
        assertThat(hashOf(changed)).isNotEqualTo(hashOf(first));

        // when
        String restore = requestRestore(first, p);
        awaitDone(restore);

        // then: field by field the first snapshot's content (the hash is over the canonical content)
        String after = snapshotThroughRunner(p, "After restore");
        assertSameContent(after, first);
        // and: the restored project read directly from the command side's lookups
        assertThat(intentNames(p)).containsExactlyInAnyOrder("Order", "Order pizza");
        assertThat(tokenLabels(p)).containsExactlyInAnyOrder("greeting", "farewell");
        assertThat(jdbc.queryForList("SELECT function_id FROM cmd_snapshot_function WHERE project_id = ?",
                String.class, p)).hasSize(2);
        // what the project still had keeps its _id (the flow, the renamed intent); what was added since is gone
        assertThat(jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ?", String.class, p))
                .hasSize(2).contains(built.flowId());
        assertThat(jdbc.queryForObject("SELECT name FROM cmd_intent_lookup WHERE intent_id = ?", String.class,
                built.parentIntentId())).isEqualTo("Order");
        assertThat(jdbc.queryForList("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?", String.class, p))
                .containsExactlyInAnyOrder(built.primaryLocaleId(), built.germanId());
    }

    @Test
    void givenARestoreRunning_whenItsTaskIsCancelled_thenItEndsCancelledAndTheProjectIsUnchanged() throws Exception {
        // given: a snapshot, then a change, and the hash of the changed project
        Built built = buildProject("Cancelled task flow");
        String p = built.projectId();
        String snapshotId = snapshotThroughRunner(p, "Target");
        created(HttpMethod.POST, "/v2.0/projects/" + p + "/snippets", Map.of("label", "kept", "type", "custom", "script", "k"));
        created(HttpMethod.PATCH, "/v2.0/flows/" + built.flowId() + "/intents/" + built.parentIntentId(),
                Map.of("name", "Renamed"));
        String before = snapshotThroughRunner(p, "Before restore");
        assertThat(hashOf(before)).isNotEqualTo(hashOf(snapshotId));
        long events = projectEventCount();

        String restore;
        // A test transaction holds the project's lookup row shared, so the restore (which takes it FOR UPDATE first
        // in its write transaction) waits there: the cancel lands while the restore runs, whichever runner has it.
        try (Connection hold = dataSource.getConnection()) {
            hold.setAutoCommit(false);
            long holder = lockProjectRow(hold, p);
            // when: the restore is running and blocked inside its transaction
            restore = requestRestore(snapshotId, p);
            eventually(() -> blockedBy(holder) > 0, "the restore to wait for the project row");
            assertThat(status(restore)).isEqualTo("active");
            // and: its task is cancelled
            http.post().uri("/v2.0/tasks/{id}/cancel", restore).header("X-API-Key", ADMIN_KEY).exchange()
                    .expectStatus().isAccepted()
                    .expectBody().jsonPath("$.status").isEqualTo("cancelling");
            assertThat(status(restore)).isEqualTo("cancelling");
            hold.rollback();
        }

        // then
        assertThat(awaitEnd(restore)).isEqualTo("cancelled");
        assertThat(projectEventCount()).isEqualTo(events);
        String after = snapshotThroughRunner(p, "After cancelled restore");
        assertSameContent(after, before);
        assertThat(intentNames(p)).contains("Renamed").doesNotContain("Order");
        assertThat(tokenLabels(p)).contains("kept");
    }

    /** Takes the project's lookup row FOR SHARE in {@code connection}'s open transaction; answers its backend pid. */
    private static long lockProjectRow(Connection connection, String projectId) throws Exception {
        try (PreparedStatement lock = connection.prepareStatement(
                "SELECT project_id FROM cmd_project_lookup WHERE project_id = ? FOR SHARE")) {
            lock.setString(1, projectId);
            try (ResultSet rows = lock.executeQuery()) {
                assertThat(rows.next()).isTrue();
            }
        }
        try (PreparedStatement pid = connection.prepareStatement("SELECT pg_backend_pid()");
             ResultSet rows = pid.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private int blockedBy(long holderPid) {
        Integer count = jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE ?::int = ANY(pg_blocking_pids(pid))",
                Integer.class, holderPid);
        return count == null ? 0 : count;
    }
}
