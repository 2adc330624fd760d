package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.task.TaskCancelRequestedEvent;
import ai.convo.contract.task.TaskCompletedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskFailedEvent;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.contract.task.TaskStartedEvent;
import ai.convo.testing.TestTokens;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;

/**
 * GET /v2.0/tasks?projectId= and GET /v2.0/tasks/{taskId}: list parameters, sort fields, cursors, media types, the
 * optional projectId, every scheme and tenancy.
 */
class TaskListTest extends QueryTestBase {

    private Caller caller;
    private Project project;
    private Project second;
    private long position;
    private final List<String> taskIds = new ArrayList<>();

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Tasks", 1000);
        second = project(caller, "Second", 1000);
        // 9 tasks: types that sort differently from creation order, ties on createdAt, every status.
        String[] types = {"restoreSnapshot", "createSnapshot", "deleteSnapshot", "CreateSnapshot", "restoreSnapshot",
                "zeta", "alpha", "createSnapshot", "beta"};
        for (int i = 0; i < types.length; i++) {
            String id = Ids.newId();
            taskIds.add(id);
            position = task(project, id, types[i], 1000 + i / 2);
        }
        position = append(taskIds.get(0), new TaskStartedEvent(taskIds.get(0), project.id(), caller.organisationId(), "r", 1, 2000));
        position = append(taskIds.get(0), new TaskProgressedEvent(taskIds.get(0), project.id(), caller.organisationId(), 3, 7, 2001));
        position = append(taskIds.get(1), new TaskStartedEvent(taskIds.get(1), project.id(), caller.organisationId(), "r", 1, 2000));
        position = append(taskIds.get(1), new TaskCompletedEvent(taskIds.get(1), project.id(), caller.organisationId(), 2002));
        position = append(taskIds.get(2), new TaskStartedEvent(taskIds.get(2), project.id(), caller.organisationId(), "r", 1, 2000));
        position = append(taskIds.get(2), new TaskFailedEvent(taskIds.get(2), project.id(), caller.organisationId(),
                "=cmd|' /C calc'!A0", 2003));
        position = append(taskIds.get(3), new TaskCancelRequestedEvent(taskIds.get(3), project.id(),
                caller.organisationId(), caller.userId(), 2004));
        position = task(second, Ids.newId(), "createSnapshot", 900);
    }

    private long task(Project in, String id, String type, long at) {
        return append(id, new TaskCreatedEvent(id, in.id(), caller.organisationId(), type,
                Map.of("snapshotId", "s" + at, "projectId", in.id()), caller.userId(), "ORG_ADMIN", at));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(String query) {
        return http.get().uri("/v2.0/tasks?projectId=" + project.id() + query)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private List<Map<String, Object>> everything() {
        return items(get("&limit=100"));
    }

    @Test
    void givenTasks_whenListed_thenJsonInCreationOrderWithTheEnvelopeAndTheTaskShape() {
        // given: 9 tasks in the project
        // when
        Map<String, Object> page = get("");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(9);
        List<Map<String, Object>> expected = new ArrayList<>(items(page));
        expected.sort(Comparator.comparing((Map<String, Object> m) -> ((Number) m.get("createdAt")).longValue())
                .thenComparing(m -> (String) m.get("_id")));
        assertThat(items(page)).isEqualTo(expected);
        Map<String, Object> first = items(page).stream().filter(m -> m.get("_id").equals(taskIds.get(0))).findFirst()
                .orElseThrow();
        assertThat(first.keySet()).containsExactly("_id", "status", "type", "parameters", "lastChangedAt",
                "lastCreatedAt", "currentStep", "totalStep", "failReason", "createdAt", "lastChanged", "createdBy",
                "lastChangedBy");
        assertThat(first).containsEntry("status", "active").containsEntry("currentStep", 3).containsEntry("totalStep", 7)
                .containsEntry("lastChangedAt", 2001).containsEntry("lastChanged", 2001)
                .containsEntry("lastCreatedAt", 1000).containsEntry("createdAt", 1000)
                .containsEntry("parameters", Map.of("snapshotId", "s1000", "projectId", project.id()))
                .containsEntry("failReason", null).containsEntry("createdBy", caller.userId());
        assertThat(items(page)).extracting(m -> m.get("status"))
                .contains("active", "done", "error", "cancelling", "queued");
    }

    @Test
    void givenAMalformedUnknownOrForeignProjectId_whenListed_then400Or404() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        // without projectId the organisation's tasks (the vendor's projectId is optional): a stranger sees none
        http.get().uri("/v2.0/tasks").header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
        http.get().uri("/v2.0/tasks?projectId=NOT").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
        http.get().uri("/v2.0/tasks?projectId=" + Ids.newId()).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.logLevel").exists();
        http.get().uri("/v2.0/tasks?projectId=" + project.id()).header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/tasks?projectId=" + second.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(1);
    }

    @Test
    void givenNineTasks_whenPagedWithLimitAndSkip_thenTheRightSlices() {
        // given
        List<String> all = ids(get("&limit=100"));
        // when / then
        assertThat(ids(get("&limit=4&skip=4"))).isEqualTo(all.subList(4, 8));
        assertThat(ids(get("&limit=4&skip=8"))).isEqualTo(all.subList(8, 9));
        assertThat(ids(get("&skip=50"))).isEmpty();
        assertThat(ids(get("&limit=3"))).isEqualTo(all.subList(0, 3));
    }

    @Test
    void givenTypes_whenFiltered_thenACaseInsensitiveSubstringOfTheType() {
        // given / when
        Map<String, Object> page = get("&filter=CREATESNAP");
        // then
        assertThat(items(page)).extracting(m -> m.get("type"))
                .containsExactlyInAnyOrder("createSnapshot", "CreateSnapshot", "createSnapshot");
        assertThat(page.get("total")).isEqualTo(3);
        assertThat(items(get("&filter=s1000"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"type,asc", "type,desc", "status,asc", "status,desc", "currentStep,asc", "currentStep,desc",
            "totalStep,desc", "createdAt,asc", "createdAt,desc", "lastCreatedAt,desc", "lastChanged,asc",
            "lastChangedAt,desc", "_id,asc", "_id,desc"})
    void givenNineTasks_whenSortedByAnyFieldInEitherDirection_thenPagesAndCursorWalksFollowThatOrder(String field,
                                                                                                    String direction) {
        // given
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        // when / then
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        assertThat(ListPages.walk(this::get, "&limit=4&sort=" + field + ":" + direction, 4))
                .isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }

    @Test
    void givenACursorWalk_whenTurningBack_thenThePreviousPageIsTheSame() {
        // given
        Map<String, Object> first = get("&limit=4&sort=type:desc");
        Map<String, Object> next = get("&limit=4&next=" + first.get("nextCursor"));
        // when
        Map<String, Object> back = get("&limit=4&previous=" + next.get("previousCursor"));
        // then
        assertThat(ids(back)).isEqualTo(ids(first));
        assertThat(back.get("previousCursor")).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "&limit=0|limit", "&limit=101|limit", "&skip=-1|skip", "&sort=parameters:asc|sort", "&sort=type:up|sort",
            "&next=short|next", "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip", "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor"})
    void givenABadParameter_whenListing_then400NamingIt(String query, String parameter) {
        // given / when / then
        http.get().uri("/v2.0/tasks?projectId=" + project.id() + query).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void givenAList_whenAskedForEachMediaType_thenJsonHalXmlCsvAnd406Otherwise() {
        // given
        String base = "/v2.0/tasks?projectId=" + project.id() + "&limit=3";
        // when / then
        http.get().uri(base).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$._links").doesNotExist();
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("application/hal+json"))
                .exchange().expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody().jsonPath("$._links.next.href").exists()
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h).startsWith("/new/v2.0/tasks/"));
        String xml = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>9</total>", "<parameters>");
        String csv = http.get().uri("/v2.0/tasks?projectId=" + project.id() + "&limit=100&filter=deleteSnapshot")
                .header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")[0]).isEqualTo("_id,status,type,parameters,lastChangedAt,lastCreatedAt,currentStep,"
                + "totalStep,failReason,createdAt,lastChanged,createdBy,lastChangedBy");
        assertThat(csv).contains("'=cmd");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @Test
    void givenATask_whenReadById_thenItIsTheListItemAndOtherOrganisationsGet404() {
        // given
        Map<String, Object> expected = everything().stream().filter(m -> m.get("_id").equals(taskIds.get(2)))
                .findFirst().orElseThrow();
        // when / then
        http.get().uri("/v2.0/tasks/{id}", taskIds.get(2)).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(Map.class).isEqualTo(expected);
        assertThat(expected).containsEntry("status", "error").containsEntry("failReason", "=cmd|' /C calc'!A0");
        http.get().uri("/v2.0/tasks/{id}", taskIds.get(2)).header("X-API-Key", newOrganisation().apiKey()).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("1000");
        http.get().uri("/v2.0/tasks/{id}", Ids.newId()).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/tasks/{id}", "x".repeat(23)).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.taskId").exists();
        http.get().uri("/v2.0/tasks/{id}", taskIds.get(2)).header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._links.self.href").isEqualTo("/new/v2.0/tasks/" + taskIds.get(2));
    }

    @Test
    void givenEachScheme_whenReading_thenAllFiveAreAcceptedAndNoneIs401() {
        // given
        String path = "/v2.0/tasks/" + taskIds.get(0);
        String user = caller.userId();
        // when / then (the first read waits for the projection; the rest find the task in place)
        http.get().uri(path).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk();
        http.get().uri(path + "?api_key=" + caller.apiKey()).exchange().expectStatus().isOk();
        http.get().uri(path).header("Authorization", "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + "@example.com:pw-" + user).getBytes())).exchange().expectStatus().isOk();
        http.get().uri(path).header("Authorization", "Bearer " + TestTokens.bearer(user)).exchange().expectStatus().isOk();
        http.get().uri("/v2.0/tasks?projectId=" + project.id()).header("x-contactcenter-authorization",
                "Bearer " + TestTokens.contactCenter(user)).exchange().expectStatus().isOk();
        http.get().uri(path).exchange().expectStatus().isUnauthorized();
        http.get().uri("/v2.0/tasks?projectId=" + project.id()).header("X-API-Key", "nope").exchange()
                .expectStatus().isUnauthorized();
    }

    @Test
    void givenADeletedProject_whenItsTasksAreListedOrRead_thenTheListIs404AndTheTaskStaysReadable() {
        // given
        long deleted = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(),
                caller.userId(), 9000));
        // when / then
        http.get().uri("/v2.0/tasks?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(deleted)).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/tasks/{id}", taskIds.get(1)).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("done");
    }
}
