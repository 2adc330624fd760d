package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;

/**
 * Snapshots end to end through the real task machinery: the routes submit with the real TaskSubmissions, the real
 * TaskRunner claims and runs the real work, and the task's state is read from {@code task_run} (the command side's
 * mirror of the task; GET /v2.0/tasks is the query side's). Cancel goes through POST /v2.0/tasks/{id}/cancel.
 */
class SnapshotTaskFlowApiTest extends SnapshotWorkSupport {

    /** POST /v2.0/snapshots, runs to done through the runner; answers the snapshot id. */
    private String snapshotThroughRunner(String projectId, String name) {
        return snapshotThroughRunner(ADMIN_KEY, projectId, name);
    }

    @SuppressWarnings("unchecked")
    private String snapshotThroughRunner(String key, String projectId, String name) {
        Map<String, Object> task = accepted(key, "/v2.0/snapshots", Map.of("projectId", projectId, "name", name));
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

    // ---- moving a bot: packages, download links, uploads

    private WebTestClient.ResponseSpec upload(String key, String projectId, byte[] file) {
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("projectId", projectId);
        parts.part("file", new org.springframework.core.io.ByteArrayResource(file) {
            @Override
            public String getFilename() {
                return "snapshot.json";
            }
        });
        return http.post().uri("/v2.0/snapshots/upload").header("X-API-Key", key)
                .contentType(MediaType.MULTIPART_FORM_DATA).body(BodyInserters.fromMultipartData(parts.build()))
                .exchange();
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenASnapshot_whenPackagedDownloadedAndUploadedIntoAnotherOrganisation_thenRestoredThereItHasTheSameHash() {
        // given: a snapshot of a project with every kind of resource
        Built built = buildProject("Moving bot");
        String snapshotId = snapshotThroughRunner(built.projectId(), "To move");
        String snapshots = "/v2.0/snapshots/" + snapshotId;
        http.post().uri(snapshots + "/downloadlink").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isEqualTo(409);
        // when: packaged, a link composed, the package downloaded
        Map<String, Object> packaging = accepted(snapshots + "/package", Map.of());
        assertThat(packaging).containsEntry("type", "packageSnapshot");
        awaitDone((String) packaging.get("_id"));
        Map<String, Object> link = http.post().uri(snapshots + "/downloadlink").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        String url = (String) link.get("downloadLink");
        assertThat(url).contains("/new/v2.0/snapshots/" + snapshotId + "/download?token=");
        String path = url.substring(url.indexOf("/v2.0/"));
        byte[] downloaded = http.get().uri(path).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isOk()
                .expectHeader().valueMatches("Content-Disposition", "attachment; filename=.*")
                .expectBody(byte[].class).returnResult().getResponseBody();
        // and: uploaded into another organisation's project and restored there
        String otherKey = otherOrganisationKey("mover-" + java.util.UUID.randomUUID() + "@example.com");
        String target = (String) createProject(otherKey, "Arrived", "en-US").get("_id");
        Map<String, Object> uploading = upload(otherKey, target, downloaded).expectStatus().isAccepted()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(uploading).containsEntry("type", "uploadSnapshotPackage");
        awaitDone((String) uploading.get("_id"));
        String uploaded = (String) ((Map<String, Object>) uploading.get("parameters")).get("snapshotId");
        awaitDone((String) accepted(otherKey, "/v2.0/snapshots/" + uploaded + "/restore", Map.of("projectId", target))
                .get("_id"));
        // then: the uploaded snapshot is the original one, and so is the project restored from it
        assertThat(hashOf(uploaded)).isEqualTo(hashOf(snapshotId));
        assertThat(hashOf(snapshotThroughRunner(otherKey, target, "After the move"))).isEqualTo(hashOf(snapshotId));
    }

    @Test
    void givenADownloadLink_whenUsedByAnotherUserWithoutItOrChanged_then403And404ForAnotherOrganisation() {
        // given
        Built built = buildProject("Private link");
        String snapshotId = snapshotThroughRunner(built.projectId(), "Linked");
        awaitDone((String) accepted("/v2.0/snapshots/" + snapshotId + "/package", Map.of()).get("_id"));
        @SuppressWarnings("unchecked")
        String url = (String) http.post().uri("/v2.0/snapshots/" + snapshotId + "/downloadlink")
                .header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isOk().expectBody(Map.class).returnResult()
                .getResponseBody().get("downloadLink");
        String path = url.substring(url.indexOf("/v2.0/"));
        String colleague = (String) http.post().uri("/v2.0/users/me/apikeys")
                .header("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD)).exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("key");
        String stranger = otherOrganisationKey("link-" + java.util.UUID.randomUUID() + "@example.com");
        // when / then: the same user with another key of theirs may use it; another organisation sees no snapshot
        http.get().uri(path).header("X-API-Key", colleague).exchange().expectStatus().isOk();
        http.get().uri(path).header("X-API-Key", stranger).exchange().expectStatus().isNotFound();
        http.get().uri(path.substring(0, path.indexOf("?"))).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isForbidden();
        http.get().uri(path.replace("download?token=" + snapshotId, "download?token=" + built.flowId()))
                .header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isForbidden();
        http.get().uri(path.substring(0, path.length() - 1) + (path.endsWith("0") ? "1" : "0"))
                .header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isForbidden();
        http.get().uri(path).exchange().expectStatus().isUnauthorized();
    }

    @Test
    void givenAChangedOrForeignFile_whenUploaded_then400AndNothingIsStored() throws Exception {
        // given: a real package, changed by hand
        Built built = buildProject("Tampered");
        String snapshotId = snapshotThroughRunner(built.projectId(), "Original");
        awaitDone((String) accepted("/v2.0/snapshots/" + snapshotId + "/package", Map.of()).get("_id"));
        byte[] original = jdbc.queryForObject("SELECT package FROM cmd_snapshot_package WHERE snapshot_id = ?",
                byte[].class, snapshotId);
        byte[] changed = new String(original, java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"description\":\"\"", "\"description\":\"mine now\"")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(changed).isNotEqualTo(original);
        long before = eventCount();
        // when / then
        upload(ADMIN_KEY, built.projectId(), changed).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("changed after it was made"));
        upload(ADMIN_KEY, built.projectId(), "{\"not\":\"a package\"}".getBytes())
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not a snapshot package"));
        http.post().uri("/v2.0/snapshots/upload").header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of()).exchange().expectStatus().isEqualTo(415);
        assertThat(eventCount()).isEqualTo(before);
    }
}
