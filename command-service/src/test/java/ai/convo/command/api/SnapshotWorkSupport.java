package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.task.TaskWork;
import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.snapshot.RequestSnapshotCommand;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import ai.convo.contract.task.TaskId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Helpers of the snapshot tests that run the task work directly, the way the task runner calls it: a project
 * built through the real routes, snapshots taken and restored by the real work beans on the real database.
 */
abstract class SnapshotWorkSupport extends ApiTestBase {

    @Autowired
    List<TaskWork> works;
    @Autowired
    CommandGateway commands;

    // ---- tasks through the real runner (state read from task_run, the command side's mirror of a task)

    private static final long DEADLINE_MILLIS = 15_000;

    static void eventually(BooleanSupplier condition, String what) {
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

    String status(String taskId) {
        List<String> rows = jdbc.queryForList("SELECT status FROM task_run WHERE task_id = ?", String.class, taskId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Waits for a terminal status and answers it, so a wrong end (error instead of done) fails with its name. */
    String awaitEnd(String taskId) {
        eventually(() -> List.of("done", "error", "cancelled").contains(status(taskId)), "task " + taskId + " to end");
        return status(taskId);
    }

    String failReason(String taskId) {
        List<String> reasons = jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND payload_type LIKE '%TaskFailedEvent'", String.class, taskId);
        return reasons.isEmpty() ? "" : reasons.get(0);
    }

    void awaitDone(String taskId) {
        assertThat(awaitEnd(taskId)).as("end of task %s %s", taskId, failReason(taskId)).isEqualTo("done");
    }

    /** POSTs, expects 202 with the Task record and its Location; answers the record. */
    Map<String, Object> accepted(String uri, Map<String, Object> body) {
        return accepted(ADMIN_KEY, uri, body);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> accepted(String key, String uri, Map<String, Object> body) {
        var result = http.post().uri(uri).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body).exchange()
                .expectStatus().isAccepted()
                .expectBody(Map.class).returnResult();
        Map<String, Object> task = result.getResponseBody();
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/tasks/" + task.get("_id"));
        return task;
    }

    Actor admin() {
        Map<String, Object> row = jdbc.queryForMap("SELECT id, organisation_id FROM identity_user WHERE email = ?",
                ADMIN_EMAIL);
        return new Actor((String) row.get("id"), (String) row.get("organisation_id"), Role.SYSTEM_ADMIN);
    }

    TaskWork work(String type) {
        return works.stream().filter(w -> w.type().equals(type)).findFirst().orElseThrow();
    }

    /** Reserves a slot as POST /snapshots does, then runs the createSnapshot work; answers the snapshot id. */
    String snapshot(String projectId) throws Exception {
        SnapshotId id = SnapshotId.generate();
        TaskId task = TaskId.generate();
        commands.sendAndWait(new RequestSnapshotCommand(new SnapshotRegistryId(ProjectId.of(projectId)), id, task,
                "Snapshot " + id, "", admin(), 1_700_000_000L));
        work("createSnapshot").run(new RecordingTaskContext(projectId, Map.of("snapshotId", id.value()), admin()));
        return id.value();
    }

    void restore(String snapshotId, String projectId) throws Exception {
        work("restoreSnapshot").run(context(snapshotId, projectId));
    }

    RecordingTaskContext context(String snapshotId, String projectId) {
        return new RecordingTaskContext(projectId, Map.of("snapshotId", snapshotId, "projectId", projectId), admin());
    }

    String hashOf(String snapshotId) {
        return jdbc.queryForObject("SELECT hash FROM cmd_snapshot_content WHERE snapshot_id = ?", String.class,
                snapshotId);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> contentOf(String snapshotId) {
        byte[] bytes = jdbc.queryForObject("SELECT content FROM cmd_snapshot_content WHERE snapshot_id = ?",
                byte[].class, snapshotId);
        return JsonMapper.builder().build().readValue(bytes, Map.class);
    }

    // ---- building a project through the routes

    WebTestClient.ResponseSpec send(HttpMethod method, String uri, Object body) {
        WebTestClient.RequestBodySpec request = http.method(method).uri(uri).header("X-API-Key", ADMIN_KEY);
        return body == null ? request.exchange() : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> created(HttpMethod method, String uri, Object body) {
        return send(method, uri, body).expectStatus().is2xxSuccessful().expectBody(Map.class).returnResult()
                .getResponseBody();
    }

    String id(Map<String, Object> record) {
        return (String) record.get("_id");
    }

    /** The project the restore tests start from: every kind of resource, with links between them. */
    record Built(String projectId, String primaryLocaleId, String germanId, String flowId, String parentIntentId,
                 String childIntentId) {
    }

    Built buildProject(String name) {
        Map<String, Object> project = createProject(ADMIN_KEY, name, "en-US");
        String projectId = id(project);
        String primary = (String) project.get("primaryLocaleReference");
        String german = id(createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "German",
                "nluLanguage", "de-DE", "fallbackLocaleReference", primary)));
        created(HttpMethod.POST, "/v2.0/projects/" + projectId + "/snippets",
                Map.of("label", "greeting", "type", "answer", "script", "Hello!"));
        created(HttpMethod.POST, "/v2.0/projects/" + projectId + "/snippets",
                Map.of("label", "farewell", "type", "custom", "script", "Bye"));
        created(HttpMethod.POST, "/v2.0/functions", Map.of("projectId", projectId, "name", "Send mail",
                "code", "return 1;"));
        created(HttpMethod.POST, "/v2.0/functions", Map.of("projectId", projectId, "name", "Disabled one",
                "code", "x", "isDisabled", true));
        String flowId = id(created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", "Main",
                "description", "The main flow")));
        String intents = "/v2.0/flows/" + flowId + "/intents";
        Map<String, Object> parentBody = new HashMap<>(Map.of("name", "Order", "description", "Orders things",
                "tags", List.of("shop", "orders"), "data", Map.of("b", 2, "a", List.of(1, "x"))));
        String parent = id(created(HttpMethod.POST, intents, parentBody));
        String child = id(created(HttpMethod.POST, intents, Map.of("name", "Order pizza", "parentIntentId", parent,
                "isRejectIntent", true)));
        created(HttpMethod.POST, intents + "/" + parent + "/sentences", Map.of("text", "I want to order", "localeId", primary));
        created(HttpMethod.POST, intents + "/" + parent + "/sentences", Map.of("text", "Ich will bestellen", "localeId", german));
        created(HttpMethod.POST, intents + "/" + child + "/sentences", Map.of("text", "A pizza please", "localeId", primary));
        created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/states", Map.of("name", "Start", "isDefault", true,
                "type", "whitelist", "intentIds", List.of(parent, child)));
        created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/states", Map.of("name", "Other"));
        created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", "Empty flow"));
        return new Built(projectId, primary, german, flowId, parent, child);
    }

    void assertSameContent(String actualSnapshotId, String expectedSnapshotId) {
        assertThat(contentOf(actualSnapshotId)).isEqualTo(contentOf(expectedSnapshotId));
        assertThat(hashOf(actualSnapshotId)).isEqualTo(hashOf(expectedSnapshotId));
    }
}
