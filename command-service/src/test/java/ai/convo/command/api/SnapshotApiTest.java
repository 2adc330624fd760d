package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.task.TaskSubmitter;
import ai.convo.testing.TestTokens;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The snapshot routes over real HTTP with the real filter chain: POST /v2.0/snapshots, DELETE /v2.0/snapshots/{id},
 * POST /v2.0/snapshots/{id}/restore. Tasks are recorded by a stand-in submitter (the task runner is another
 * feature); the work itself is tested in {@link SnapshotRestoreTest}.
 */
@Import(SnapshotApiTest.RecordedTasks.class)
class SnapshotApiTest extends SnapshotWorkSupport {

    /** Records each submitted task and answers a queued Task record, as the task feature's submitter does. */
    @TestConfiguration
    static class RecordedTasks {
        static final List<Map<String, Object>> SUBMITTED = new CopyOnWriteArrayList<>();

        @Bean
        @Primary
        TaskSubmitter recordingSubmitter() {
            return (taskId, type, projectId, parameters, actor) -> {
                Map<String, Object> record = Map.of("_id", taskId.value(), "status", "queued", "type", type,
                        "parameters", parameters, "currentStep", 0, "totalStep", 0);
                SUBMITTED.add(Map.of("type", type, "projectId", projectId.value(), "parameters", parameters));
                return new TaskSubmitter.Submitted(taskId, record, null);
            };
        }
    }

    private String projectId;

    @BeforeEach
    void project() {
        projectId = id(createProject(ADMIN_KEY, "Snapshots " + System.nanoTime(), "en-US"));
    }

    private WebTestClient.ResponseSpec post(String uri, String key, Object body) {
        WebTestClient.RequestBodySpec request = http.post().uri(uri).header("X-API-Key", key);
        return body == null ? request.exchange() : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> problem(WebTestClient.ResponseSpec response, int status, String code) {
        Map<String, Object> body = response.expectStatus().isEqualTo(status)
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body).containsEntry("code", code).containsEntry("status", status);
        return body;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> accepted(WebTestClient.ResponseSpec response) {
        var result = response.expectStatus().isAccepted()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(Map.class).returnResult();
        Map<String, Object> task = result.getResponseBody();
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/tasks/" + task.get("_id"));
        return task;
    }

    private String createdSnapshot() throws Exception {
        return snapshot(projectId);
    }

    // ---- POST /v2.0/snapshots

    @Test
    void givenAProject_whenASnapshotIsPosted_then202WithTheQueuedCreateSnapshotTaskAndItsLocation() {
        // when
        Map<String, Object> task = accepted(post("/v2.0/snapshots", ADMIN_KEY,
                Map.of("projectId", projectId, "name", "Before release", "description", "v1")));
        // then
        assertThat(task).containsEntry("status", "queued").containsEntry("type", "createSnapshot");
        @SuppressWarnings("unchecked")
        Map<String, Object> parameters = (Map<String, Object>) task.get("parameters");
        assertThat(parameters).containsEntry("projectId", projectId).containsEntry("name", "Before release");
        assertThat(jdbc.queryForObject("SELECT project_id FROM cmd_snapshot WHERE snapshot_id = ?", String.class,
                parameters.get("snapshotId"))).isEqualTo(projectId);
    }

    @Test
    void givenABearerToken_whenASnapshotIsPosted_then202() {
        http.post().uri("/v2.0/snapshots").header("Authorization", "Bearer " + TestTokens.bearer(adminUserId()))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "n"))
                .exchange().expectStatus().isAccepted();
    }

    @Test
    void givenNoCredentials_whenASnapshotIsPosted_then401() {
        http.post().uri("/v2.0/snapshots").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "n")).exchange().expectStatus().isUnauthorized();
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenABodyWithoutProjectIdAndName_whenPosted_then400NamingBothAndNothingStored() {
        long events = eventCount();
        Map<String, Object> body = problem(post("/v2.0/snapshots", ADMIN_KEY, Map.of("description", 3)), 400, "1000");
        assertThat(((Map<String, Object>) body.get("details")).keySet()).contains("projectId", "name", "description");
        assertThat(eventCount()).isEqualTo(events);
    }

    @Test
    void givenAMalformedProjectIdOrAnUnknownField_whenPosted_then400() {
        problem(post("/v2.0/snapshots", ADMIN_KEY, Map.of("projectId", "nope", "name", "n")), 400, "1000");
        problem(post("/v2.0/snapshots", ADMIN_KEY, Map.of("projectId", projectId, "name", "n", "extra", 1)), 400, "1000");
        problem(post("/v2.0/snapshots", ADMIN_KEY, Map.of("projectId", projectId, "name", "x".repeat(201))), 400, "1000");
        problem(post("/v2.0/snapshots", ADMIN_KEY, null), 400, "1000");
    }

    @Test
    void givenAnUnknownProject_whenASnapshotIsPosted_then404() {
        problem(post("/v2.0/snapshots", ADMIN_KEY, Map.of("projectId", "0123456789abcdef01234567", "name", "n")),
                404, "1000");
    }

    @Test
    void givenAProjectOfAnotherOrganisation_whenASnapshotIsPosted_then404() {
        String strangerKey = otherOrganisationKey("snap-post-" + System.nanoTime() + "@example.com");
        problem(post("/v2.0/snapshots", strangerKey, Map.of("projectId", projectId, "name", "n")), 404, "1000");
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenTenSnapshotsRequested_whenAnEleventhIsPosted_then409AndNoTask() {
        for (int i = 0; i < 10; i++) {
            accepted(post("/v2.0/snapshots", ADMIN_KEY, Map.of("projectId", projectId, "name", "n" + i)));
        }
        int tasks = RecordedTasks.SUBMITTED.size();
        Map<String, Object> body = problem(post("/v2.0/snapshots", ADMIN_KEY, Map.of("projectId", projectId, "name", "x")),
                409, "1004");
        assertThat((String) body.get("detail")).contains("at most 10");
        assertThat(RecordedTasks.SUBMITTED).hasSize(tasks);
    }

    @Test
    void givenAnUnsupportedAccept_whenPosted_then406() {
        http.post().uri("/v2.0/snapshots").header("X-API-Key", ADMIN_KEY).accept(MediaType.IMAGE_PNG)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "n"))
                .exchange().expectStatus().isEqualTo(406);
    }

    // ---- DELETE /v2.0/snapshots/{id}

    @Test
    void givenASnapshot_whenDeleted_then202WithADeleteSnapshotTask_andTheTaskFreesTheSlot() throws Exception {
        String snapshotId = createdSnapshot();
        Map<String, Object> task = accepted(send(HttpMethod.DELETE, "/v2.0/snapshots/" + snapshotId, null));
        assertThat(task).containsEntry("type", "deleteSnapshot");
        // and the task's work removes it
        work("deleteSnapshot").run(new RecordingTaskContext(projectId, Map.of("snapshotId", snapshotId), admin()));
        assertThat(jdbc.queryForList("SELECT 1 FROM cmd_snapshot WHERE snapshot_id = ?", snapshotId)).isEmpty();
        assertThat(jdbc.queryForList("SELECT 1 FROM cmd_snapshot_content WHERE snapshot_id = ?", snapshotId)).isEmpty();
        problem(send(HttpMethod.DELETE, "/v2.0/snapshots/" + snapshotId, null), 404, "1000");
    }

    @Test
    void givenASnapshotBeingDeleted_whenDeletedAgain_then409() throws Exception {
        String snapshotId = createdSnapshot();
        accepted(send(HttpMethod.DELETE, "/v2.0/snapshots/" + snapshotId, null));
        problem(send(HttpMethod.DELETE, "/v2.0/snapshots/" + snapshotId, null), 409, "1004");
    }

    @Test
    void givenUnknownMalformedOrForeignSnapshots_whenDeleted_then404Or400() throws Exception {
        problem(send(HttpMethod.DELETE, "/v2.0/snapshots/0123456789abcdef01234567", null), 404, "1000");
        problem(send(HttpMethod.DELETE, "/v2.0/snapshots/NOT-AN-ID", null), 400, "1000");
        String snapshotId = createdSnapshot();
        String strangerKey = otherOrganisationKey("snap-del-" + System.nanoTime() + "@example.com");
        problem(http.delete().uri("/v2.0/snapshots/" + snapshotId).header("X-API-Key", strangerKey).exchange(),
                404, "1000");
    }

    // ---- POST /v2.0/snapshots/{id}/restore

    @Test
    void givenASnapshot_whenRestoredIntoAnotherProjectOfTheOrganisation_then202WithARestoreTaskForThatProject()
            throws Exception {
        String snapshotId = createdSnapshot();
        String target = id(createProject(ADMIN_KEY, "Target " + System.nanoTime(), "en-US"));
        Map<String, Object> task = accepted(post("/v2.0/snapshots/" + snapshotId + "/restore", ADMIN_KEY,
                Map.of("projectId", target)));
        assertThat(task).containsEntry("type", "restoreSnapshot");
        assertThat(RecordedTasks.SUBMITTED.get(RecordedTasks.SUBMITTED.size() - 1)).containsEntry("projectId", target);
    }

    @Test
    void givenABearerToken_whenASnapshotIsRestored_then202() throws Exception {
        String snapshotId = createdSnapshot();
        http.post().uri("/v2.0/snapshots/" + snapshotId + "/restore")
                .header("Authorization", "Bearer " + TestTokens.bearer(adminUserId()))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId))
                .exchange().expectStatus().isAccepted();
    }

    @Test
    void givenBadRestoreRequests_thenClear4xx() throws Exception {
        String snapshotId = createdSnapshot();
        String restore = "/v2.0/snapshots/" + snapshotId + "/restore";
        problem(post(restore, ADMIN_KEY, Map.of()), 400, "1000");
        problem(post(restore, ADMIN_KEY, Map.of("projectId", "short")), 400, "1000");
        problem(post("/v2.0/snapshots/bad/restore", ADMIN_KEY, Map.of("projectId", projectId)), 400, "1000");
        problem(post("/v2.0/snapshots/0123456789abcdef01234567/restore", ADMIN_KEY, Map.of("projectId", projectId)),
                404, "1000");
        problem(post(restore, ADMIN_KEY, Map.of("projectId", "0123456789abcdef01234567")), 404, "1000");
        http.post().uri(restore).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId))
                .exchange().expectStatus().isUnauthorized();
    }

    @Test
    void givenAnotherOrganisation_whenItRestoresOurSnapshotOrIntoOurProject_then404() throws Exception {
        String snapshotId = createdSnapshot();
        String strangerKey = otherOrganisationKey("snap-restore-" + System.nanoTime() + "@example.com");
        String strangersProject = id(createProject(strangerKey, "Stranger's", "en-US"));
        problem(post("/v2.0/snapshots/" + snapshotId + "/restore", strangerKey, Map.of("projectId", strangersProject)),
                404, "1000");
        problem(post("/v2.0/snapshots/" + snapshotId + "/restore", ADMIN_KEY, Map.of("projectId", strangersProject)),
                404, "1000");
    }
}
