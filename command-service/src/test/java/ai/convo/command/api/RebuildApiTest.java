package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * POST /management/v2.0/projections/rebuild over real HTTP: a system Task that asks a query replica for the rebuild
 * (projection_rebuild), mirrors its progress as the task's steps and ends as the rebuild does. The query replica is
 * played here by updating that row, as it would.
 */
class RebuildApiTest extends ApiTestBase {

    private static final String PATH = "/management/v2.0/projections/rebuild";

    private static void await(String what, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not within 30 s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private boolean hasEvent(String taskId, String type, String contains) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM domain_event_entry WHERE "
                + "aggregate_identifier = ? AND payload_type = ? AND convert_from(payload, 'UTF8') LIKE ?)", Boolean.class,
                taskId, "ai.convo.contract.task." + type, "%" + contains + "%"));
    }

    private long rebuildTasks() {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = "
                + "'ai.convo.contract.task.TaskCreatedEvent' AND convert_from(payload, 'UTF8') LIKE '%rebuildProjections%'",
                Long.class);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> request(Object body) {
        return http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body).exchange()
                .expectStatus().isAccepted()
                .expectHeader().value("Location", l -> assertThat(l).matches("/new/v2\\.0/tasks/[a-z0-9]{24}"))
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @Test
    void givenASystemAdministrator_whenARebuildIsRequested_thenATaskFollowsTheQueryReplicasWorkToDone() {
        // when
        Map<String, Object> task = request(Map.of("projection", "tokens", "requireIdentical", true));
        String id = (String) task.get("_id");

        // then: a queued system task, and the rebuild asked for under its id
        assertThat(task).containsEntry("type", "rebuildProjections").containsEntry("status", "queued")
                .containsEntry("parameters", Map.of("projections", List.of("tokens"), "requireIdentical", true));
        await("the rebuild row", () -> jdbc.queryForObject("SELECT count(*) FROM projection_rebuild WHERE id = ?",
                Integer.class, id) == 1);
        assertThat(jdbc.queryForObject("SELECT array_to_string(projections, ',') || ':' || require_identical "
                + "FROM projection_rebuild WHERE id = ?", String.class, id)).isEqualTo("tokens:true");

        // when the query replica reports progress, then the task's steps follow
        jdbc.update("UPDATE projection_rebuild SET status = 'running', events_total = 10, events_done = 4 WHERE id = ?", id);
        await("progress 4 of 10", () -> hasEvent(id, "TaskProgressedEvent", "\"currentStep\":4,\"totalStep\":10"));

        // when it has switched, then the task is done
        jdbc.update("UPDATE projection_rebuild SET status = 'done', events_done = 10 WHERE id = ?", id);
        await("done", () -> hasEvent(id, "TaskCompletedEvent", id));
    }

    @Test
    void givenARebuildThatFails_whenTheReplicaSaysSo_thenTheTaskEndsErrorWithItsReason() {
        String id = (String) request(Map.of("projection", "all")).get("_id");
        await("the rebuild row", () -> jdbc.queryForObject("SELECT count(*) FROM projection_rebuild WHERE id = ?",
                Integer.class, id) == 1);
        assertThat(jdbc.queryForObject("SELECT cardinality(projections) FROM projection_rebuild WHERE id = ?",
                Integer.class, id)).isEqualTo(ai.convo.contract.rebuild.Projections.NAMES.size());

        jdbc.update("UPDATE projection_rebuild SET status = 'failed', fail_reason = 'The rebuilt tables differ' "
                + "WHERE id = ?", id);

        await("error", () -> hasEvent(id, "TaskFailedEvent", "The rebuilt tables differ"));
    }

    @Test
    void givenAnythingButASystemAdministratorOrAKnownProjection_whenRequested_then4xxAndNoTask() {
        long before = rebuildTasks();
        String other = otherOrganisationKey("rebuilder-" + System.nanoTime() + "@example.com");
        http.post().uri(PATH).header("X-API-Key", other).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projection", "all")).exchange()
                .expectStatus().isForbidden()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("system administrator"));
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projection", "everything")).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("tokens"));
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projection", "all", "force", true)).exchange()
                .expectStatus().isBadRequest();
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("requireIdentical", true)).exchange()
                .expectStatus().isBadRequest();
        assertThat(rebuildTasks()).isEqualTo(before);
    }
}
