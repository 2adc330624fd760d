package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.command.task.TaskSubmitter;
import ai.convo.command.task.TestWorks;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.testing.TestTokens;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Tasks on the real command service: the submitter, this process's runner with the test work types of
 * {@link TestWorks}, and POST /v2.0/tasks/{taskId}/cancel over real HTTP with the real security chain.
 */
class TaskApiTest extends ApiTestBase {

    private static final MediaType HAL = MediaType.parseMediaType("application/hal+json");

    @Autowired
    TaskSubmitter submitter;

    private Actor admin;
    private String projectId;

    @BeforeEach
    void project() {
        String user = adminUserId();
        String org = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE id = ?", String.class, user);
        admin = new Actor(user, org, Role.SYSTEM_ADMIN);
        projectId = newProject();
    }

    private String newProject() {
        return (String) createProject(ADMIN_KEY, "Tasks " + UUID.randomUUID(), "en-US").get("_id");
    }

    private TaskSubmitter.Submitted submit(String type, Map<String, Object> parameters) {
        return submit(projectId, type, parameters);
    }

    private TaskSubmitter.Submitted submit(String project, String type, Map<String, Object> parameters) {
        return submitter.submit(TaskId.generate(), type, ProjectId.of(project), parameters, admin);
    }

    private String status(String taskId) {
        return jdbc.queryForObject("SELECT status FROM task_run WHERE task_id = ?", String.class, taskId);
    }

    private List<String> events(String taskId) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number", String.class, taskId).stream()
                .map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }

    private static void eventually(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private void awaitStatus(String taskId, String expected) {
        eventually(() -> expected.equals(status(taskId)), "task " + taskId + " " + expected);
    }

    private WebTestClient.ResponseSpec cancel(String header, String value, String taskId) {
        return http.post().uri("/v2.0/tasks/{id}/cancel", taskId).header(header, value).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> cancelled(String taskId) {
        return cancel("X-API-Key", ADMIN_KEY, taskId).expectStatus().isAccepted()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    // ---- submit and run

    @Test
    void givenATask_whenSubmitted_thenTheRecordIsQueuedAndTheRunnerRunsItToDoneWithRealProgress() {
        // given / when
        TaskSubmitter.Submitted submitted = submit("test-steps", Map.of("steps", 3, "stepMillis", 5));
        // then
        Map<String, Object> record = submitted.record();
        assertThat(record.keySet()).containsExactly("_id", "status", "type", "parameters", "lastChangedAt",
                "lastCreatedAt", "currentStep", "totalStep", "failReason", "createdAt", "lastChanged", "createdBy",
                "lastChangedBy");
        assertThat(record).containsEntry("_id", submitted.taskId().value()).containsEntry("status", "queued")
                .containsEntry("type", "test-steps").containsEntry("parameters", Map.of("steps", 3, "stepMillis", 5))
                .containsEntry("currentStep", 0).containsEntry("totalStep", 0).containsEntry("failReason", null)
                .containsEntry("createdBy", admin.userId());
        assertThat(record.get("lastCreatedAt")).isEqualTo(record.get("createdAt"));
        assertThat(submitted.eventPosition()).isPositive();
        String id = submitted.taskId().value();
        awaitStatus(id, "done");
        assertThat(events(id)).containsExactly("TaskCreatedEvent", "TaskStartedEvent", "TaskProgressedEvent",
                "TaskProgressedEvent", "TaskProgressedEvent", "TaskProgressedEvent", "TaskCompletedEvent");
        assertThat(TestWorks.starts(id)).isEqualTo(1);
        assertThat(jdbc.queryForMap("SELECT runner_id, lease_until FROM task_run WHERE task_id = ?", id))
                .containsEntry("runner_id", null).containsEntry("lease_until", null);
    }

    @Test
    void givenARunningTask_whenAStepIsDone_thenItIsCommittedWhileTheWorkStillRuns() throws Exception {
        // given
        String id = submit("test-gate", Map.of()).taskId().value();
        // when: the work reported step 1 and now waits at its gate
        assertThat(TestWorks.awaitArrival(id, 20_000)).isTrue();
        // then: another connection sees the progress and the active status already
        assertThat(status(id)).isEqualTo("active");
        assertThat(events(id)).containsExactly("TaskCreatedEvent", "TaskStartedEvent", "TaskProgressedEvent",
                "TaskProgressedEvent");
        TestWorks.open(id);
        awaitStatus(id, "done");
    }

    @Test
    void givenAFailingWork_whenItRuns_thenErrorWithItsReasonOrAGenericOneWithoutInternals() {
        // given / when
        String reasoned = submit("test-fail", Map.of("reason", "Snapshot 42 is damaged.")).taskId().value();
        String crashed = submit("test-fail", Map.of()).taskId().value();
        // then
        awaitStatus(reasoned, "error");
        awaitStatus(crashed, "error");
        assertThat(events(reasoned)).containsExactly("TaskCreatedEvent", "TaskStartedEvent", "TaskFailedEvent");
        String reasonJson = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%TaskFailedEvent'", String.class, reasoned);
        assertThat(reasonJson).contains("Snapshot 42 is damaged.");
        String crashJson = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%TaskFailedEvent'", String.class, crashed);
        assertThat(crashJson).contains("unexpected error").doesNotContain("secret_table", "IllegalState");
    }

    @Test
    void givenATypeWithoutWorker_whenItRuns_thenErrorNamingTheType() {
        // given / when
        String id = submit("no-such-work", Map.of()).taskId().value();
        // then
        awaitStatus(id, "error");
        assertThat(events(id)).containsExactly("TaskCreatedEvent", "TaskStartedEvent", "TaskFailedEvent");
        assertThat(cancel("X-API-Key", ADMIN_KEY, id).expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("1004")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("is error"))
                .returnResult()).isNotNull();
        String failed = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%TaskFailedEvent'", String.class, id);
        assertThat(failed).contains("No worker for task type 'no-such-work'");
    }

    @Test
    void givenTasksOfOneProject_whenSubmittedTogether_thenTheyRunOneAfterAnotherInOrder() {
        // given
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(submit("test-steps", Map.of("steps", 2, "stepMillis", 30)).taskId().value());
        }
        // when
        ids.forEach(id -> awaitStatus(id, "done"));
        // then
        List<TestWorks.RunRecord> runs = TestWorks.RUNS.stream().filter(r -> ids.contains(r.taskId())).toList();
        assertThat(runs).extracting(TestWorks.RunRecord::taskId).containsExactlyElementsOf(ids);
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i).startedNanos()).isGreaterThanOrEqualTo(runs.get(i - 1).endedNanos());
        }
    }

    @Test
    void givenASubmission_whenTheProjectIsUnknownForeignOrTheTypeBlank_thenRefusedAndNothingStored() {
        // given
        String stranger = otherOrganisationKey("tasks-" + UUID.randomUUID() + "@example.com");
        String foreignProject = (String) createProject(stranger, "Foreign", "en-US").get("_id");
        TaskId unknown = TaskId.generate();
        TaskId foreign = TaskId.generate();
        TaskId blank = TaskId.generate();
        // when / then
        assertThatThrownBy(() -> submitter.submit(unknown, "test-steps", ProjectId.of(Ids.newId()), Map.of(), admin))
                .isInstanceOfSatisfying(DomainException.class, e -> assertThat(e.kind()).isEqualTo(DomainException.Kind.NOT_FOUND));
        assertThatThrownBy(() -> submitter.submit(foreign, "test-steps", ProjectId.of(foreignProject), Map.of(), admin))
                .isInstanceOfSatisfying(DomainException.class, e -> assertThat(e.kind()).isEqualTo(DomainException.Kind.NOT_FOUND));
        assertThatThrownBy(() -> submitter.submit(blank, "  ", ProjectId.of(projectId), Map.of(), admin))
                .isInstanceOfSatisfying(DomainException.class, e -> assertThat(e.details()).containsKey("type"));
        for (TaskId id : List.of(unknown, foreign, blank)) {
            assertThat(events(id.value())).isEmpty();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM task_run WHERE task_id = ?", Integer.class, id.value()))
                    .isZero();
        }
    }

    // ---- cancel

    @Test
    void givenAnActiveTask_whenCancelled_then202CancellingAsHalAndTheWorkEndsCancelledAtItsNextStep() throws Exception {
        // given
        String id = submit("test-gate", Map.of("snapshotId", "abc")).taskId().value();
        assertThat(TestWorks.awaitArrival(id, 20_000)).isTrue();
        // when
        http.post().uri("/v2.0/tasks/{id}/cancel", id).header("X-API-Key", ADMIN_KEY).exchange()
                // then
                .expectStatus().isAccepted()
                .expectHeader().contentType(HAL)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody()
                .jsonPath("$._id").isEqualTo(id)
                .jsonPath("$.status").isEqualTo("cancelling")
                .jsonPath("$.type").isEqualTo("test-gate")
                .jsonPath("$.parameters.snapshotId").isEqualTo("abc")
                .jsonPath("$.currentStep").isEqualTo(1)
                .jsonPath("$.totalStep").isEqualTo(2)
                .jsonPath("$.lastChangedBy").isEqualTo(admin.userId())
                .jsonPath("$._links.self.href").isEqualTo("/new/v2.0/tasks/" + id + "/cancel");
        List<String> before = events(id);
        Map<String, Object> again = cancelled(id);
        assertThat(again).containsEntry("status", "cancelling");
        assertThat(events(id)).isEqualTo(before);
        TestWorks.open(id);
        awaitStatus(id, "cancelled");
        assertThat(events(id)).containsExactly("TaskCreatedEvent", "TaskStartedEvent", "TaskProgressedEvent",
                "TaskProgressedEvent", "TaskCancelRequestedEvent", "TaskProgressedEvent", "TaskCancelledEvent");
        // the step the work did before it noticed is recorded too: progress stays truthful
        assertThat(cancelled(id)).containsEntry("status", "cancelled").containsEntry("currentStep", 2);
    }

    @Test
    void givenAQueuedTaskBehindARunningOne_whenCancelled_thenItIsConfirmedCancelledWithoutEverStarting() throws Exception {
        // given
        String first = submit("test-gate", Map.of()).taskId().value();
        assertThat(TestWorks.awaitArrival(first, 20_000)).isTrue();
        String queued = submit("test-steps", Map.of()).taskId().value();
        Thread.sleep(100);
        assertThat(status(queued)).isEqualTo("queued");
        // when
        assertThat(cancelled(queued)).containsEntry("status", "cancelling");
        // then: it never waits for the running task of its project
        awaitStatus(queued, "cancelled");
        assertThat(status(first)).isEqualTo("active");
        assertThat(events(queued)).containsExactly("TaskCreatedEvent", "TaskCancelRequestedEvent", "TaskCancelledEvent");
        assertThat(TestWorks.starts(queued)).isZero();
        TestWorks.open(first);
        awaitStatus(first, "done");
    }

    @Test
    void givenADoneTask_whenCancelled_then409NamingTheStatusAndNothingStored() {
        // given
        String id = submit("test-steps", Map.of("steps", 1)).taskId().value();
        awaitStatus(id, "done");
        List<String> before = events(id);
        // when / then
        cancel("X-API-Key", ADMIN_KEY, id).expectStatus().isEqualTo(409)
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.code").isEqualTo("1004")
                .jsonPath("$.status").isEqualTo(409)
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("is done", "queued or active"))
                .jsonPath("$.details.status").isEqualTo("done");
        assertThat(events(id)).isEqualTo(before).endsWith("TaskCompletedEvent");
    }

    @Test
    void givenUnknownMalformedOrForeignTasks_whenCancelled_then404Or400AndNothingStored() {
        // given
        String id = submit("test-steps", Map.of("steps", 1)).taskId().value();
        String stranger = otherOrganisationKey("tasks-" + UUID.randomUUID() + "@example.com");
        awaitStatus(id, "done");
        List<String> before = events(id);
        // when / then
        cancel("X-API-Key", stranger, id).expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("1000").jsonPath("$.logLevel").exists();
        cancel("X-API-Key", ADMIN_KEY, Ids.newId()).expectStatus().isNotFound();
        cancel("X-API-Key", ADMIN_KEY, "NOT-AN-ID").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("1000").jsonPath("$.details.taskId").exists();
        cancel("X-API-Key", ADMIN_KEY, "a".repeat(25)).expectStatus().isBadRequest();
        assertThat(events(id)).isEqualTo(before);
    }

    @Test
    void givenAQueuedTask_whenCancelledWithEachOfTheFiveSchemes_then202AndWithoutOrWithBadCredentials401() {
        // given: tasks that stay queued behind a gated one
        String gate = submit("test-gate", Map.of()).taskId().value();
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(submit("test-steps", Map.of()).taskId().value());
        }
        String user = admin.userId();
        // when / then
        cancel("X-API-Key", ADMIN_KEY, ids.get(0)).expectStatus().isAccepted();
        http.post().uri("/v2.0/tasks/{id}/cancel?api_key={key}", ids.get(1), ADMIN_KEY).exchange().expectStatus().isAccepted();
        cancel("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD), ids.get(2)).expectStatus().isAccepted();
        cancel("Authorization", "Bearer " + TestTokens.bearer(user), ids.get(3)).expectStatus().isAccepted();
        cancel("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(user), ids.get(4))
                .expectStatus().isAccepted();
        http.post().uri("/v2.0/tasks/{id}/cancel", gate).exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("401");
        cancel("Authorization", "Bearer " + TestTokens.forgedBearer(user), gate).expectStatus().isUnauthorized();
        cancel("X-API-Key", "nope", gate).expectStatus().isUnauthorized();
        ids.forEach(id -> awaitStatus(id, "cancelled"));
        TestWorks.open(gate);
        awaitStatus(gate, "done");
    }

    @Test
    void givenATask_whenCancelledAskingForEachMediaType_thenJsonXmlCsvOr406() throws Exception {
        // given
        String gate = submit("test-gate", Map.of()).taskId().value();
        String a = submit("test-steps", Map.of()).taskId().value();
        assertThat(TestWorks.awaitArrival(gate, 20_000)).isTrue();
        // when / then
        http.post().uri("/v2.0/tasks/{id}/cancel", a).header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_JSON)
                .exchange().expectStatus().isAccepted().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$._links").doesNotExist().jsonPath("$.status").isEqualTo("cancelling");
        String xml = http.post().uri("/v2.0/tasks/{id}/cancel", a).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.APPLICATION_XML).exchange().expectStatus().isAccepted()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<task><_id>" + a + "</_id>").contains("<status>");
        String csv = http.post().uri("/v2.0/tasks/{id}/cancel", a).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.parseMediaType("text/csv")).exchange().expectStatus().isAccepted()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")[0]).isEqualTo("_id,status,type,parameters,lastChangedAt,lastCreatedAt,currentStep,"
                + "totalStep,failReason,createdAt,lastChanged,createdBy,lastChangedBy");
        awaitStatus(a, "cancelled");
        String other = submit("test-steps", Map.of()).taskId().value();
        http.post().uri("/v2.0/tasks/{id}/cancel", other).header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
        assertThat(events(other)).containsExactly("TaskCreatedEvent");
        TestWorks.open(gate);
        awaitStatus(other, "done");
    }
}
