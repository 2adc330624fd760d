package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;

/** GET /v2.0/flows (limit, skip, filter, sort, cursors, media types, errors, tenancy) and GET /v2.0/flows/{id}. */
class FlowListTest extends FlowQuerySupport {

    private Caller caller;
    private Project project;
    private List<String> flowIds;
    private long position;

    @BeforeEach
    void seed() {
        // given: 12 flows whose names, descriptions and creation times sort differently, some times equal (ties)
        caller = newOrganisation();
        project = project(caller, "Flows", 1000);
        String[] names = {"kilo", "Alpha", "juliet", "bravo", "india", "charlie", "hotel", "delta", "golf", "echo",
                "fox_trot", "lima"};
        String[] descriptions = {"m", "", "Zed", "b", "", "a", "=formula", "y", "c", "X", "d", "e"};
        flowIds = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            String flowId = Ids.newId();
            flowIds.add(flowId);
            position = flow(caller, project.id(), flowId, names[i], descriptions[i], 1000 + i / 2);
        }
        // one flow renamed later, so lastChanged differs from createdAt
        position = append(flowIds.get(0), new FlowUpdatedEvent(flowIds.get(0), project.id(), caller.organisationId(),
                List.of("name"), "zulu", "m", caller.userId(), 2000));
    }

    private String base() {
        return "/v2.0/flows?projectId=" + project.id();
    }

    private Map<String, Object> get(String query) {
        return page(base() + query, caller, position);
    }

    private List<Map<String, Object>> everything() {
        return items(get("&limit=100"));
    }

    @Test
    void givenFlows_whenListedWithoutParameters_thenCreationOrderInTheEnvelope() {
        // when
        Map<String, Object> page = get("");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNull();
        assertThat(page.get("previousCursor")).isNull();
        assertThat(items(page)).isEqualTo(sortedBy(items(page), "createdAt", true));
        assertThat(items(page).get(0).keySet()).containsExactly("_id", "name", "description", "referenceId",
                "projectReference", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(items(page)).allSatisfy(f -> assertThat(f.get("projectReference")).isEqualTo(project.id()));
    }

    @Test
    void givenFlows_whenPagedWithLimitAndSkip_thenTheRightSlice() {
        // given
        List<String> all = ids(get("&limit=100"));
        // when
        Map<String, Object> page = get("&limit=5&skip=5");
        // then
        assertThat(ids(page)).isEqualTo(all.subList(5, 10));
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(get("&limit=5&skip=10"))).isEqualTo(all.subList(10, 12));
        assertThat(ids(get("&skip=50"))).isEmpty();
        assertThat(ids(get("&limit=1"))).containsExactly(all.get(0));
    }

    @Test
    void givenFlows_whenFiltered_thenCaseInsensitiveSubstringOfTheNameWithWildcardsTakenLiterally() {
        // when
        Map<String, Object> page = get("&filter=LI");
        // then
        assertThat(items(page)).extracting(m -> m.get("name")).containsExactlyInAnyOrder("juliet", "charlie", "lima");
        assertThat(page.get("total")).isEqualTo(3);
        assertThat(items(get("&filter=_"))).extracting(m -> m.get("name")).containsExactly("fox_trot");
        assertThat(items(get("&filter=%25"))).isEmpty();
        assertThat(items(get("&filter=alp"))).extracting(m -> m.get("name")).containsExactly("Alpha");
    }

    @ParameterizedTest
    @CsvSource({"name,asc", "name,desc", "description,asc", "description,desc", "createdAt,asc", "createdAt,desc",
            "lastChanged,asc", "lastChanged,desc", "referenceId,asc", "referenceId,desc", "_id,asc", "_id,desc"})
    void givenFlows_whenSortedByAField_thenThatOrderInBothDirectionsAlsoWhenWalkedWithCursors(String field, String direction) {
        // given
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        // when / then
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        assertThat(walk(base(), "&limit=5&sort=" + field + ":" + direction, 5, caller, position))
                .isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }

    @Test
    void givenFlows_whenWalkedBackWithPrevious_thenTheSamePages() {
        // given
        Map<String, Object> first = get("&limit=5&sort=name:asc");
        Map<String, Object> second = get("&limit=5&next=" + first.get("nextCursor"));
        Map<String, Object> third = get("&limit=5&next=" + second.get("nextCursor"));
        // when / then
        assertThat(third.get("nextCursor")).isNull();
        assertThat(ids(get("&limit=5&previous=" + third.get("previousCursor")))).isEqualTo(ids(second));
        Map<String, Object> back = get("&limit=5&previous=" + second.get("previousCursor"));
        assertThat(ids(back)).isEqualTo(ids(first));
        assertThat(back.get("previousCursor")).isNull();
        assertThat((String) first.get("nextCursor")).matches("^[a-z0-9]{24}$");
    }

    @Test
    void givenACursorWalk_whenFlowsAreDeletedAndCreatedMeanwhile_thenNoFlowRepeatsOrVanishes() {
        // given
        List<String> before = ids(get("&limit=100&sort=name:asc"));
        Map<String, Object> page = get("&limit=4&sort=name:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);
        // when: the boundary flow is deleted, one flow is created before the cursor and one after it
        append(boundary, new FlowDeletedEvent(boundary, project.id(), caller.organisationId(), caller.userId(), 3000));
        flow(caller, project.id(), Ids.newId(), "aaa", "", 3000);
        position = flow(caller, project.id(), Ids.newId(), "zzzz", "", 3000);
        while (page.get("nextCursor") != null) {
            page = get("&limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        // then
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        assertThat(seen.subList(4, 4 + before.size() - 4)).isEqualTo(before.subList(4, before.size()));
        assertThat(seen).hasSize(before.size() + 1);
    }

    @Test
    void givenFlows_whenAskedForEveryMediaType_thenEachRendersTheList() {
        // given
        String uri = base() + "&limit=3";
        // when / then
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectHeader().doesNotExist("Deprecation")
                .expectBody()
                .jsonPath("$._links.self.href").isEqualTo("/new" + uri)
                .jsonPath("$._links.next.href").value(h -> assertThat((String) h).contains("next="))
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h)
                        .startsWith("/new/v2.0/flows/").hasSize("/new/v2.0/flows/".length() + 24));
        String xml = http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>12</total>", "<nextCursor>",
                "<projectReference>" + project.id());
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        String csv = http.get().uri(base() + "&limit=100&sort=name:asc").header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("text/csv")).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        String[] rows = csv.split("\r\n");
        assertThat(rows).hasSize(13);
        assertThat(rows[0]).isEqualTo("_id,name,description,referenceId,projectReference,createdAt,lastChanged,"
                + "createdBy,lastChangedBy");
        assertThat(csv).contains(",'=formula,");
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "&limit=0|limit", "&limit=101|limit", "&limit=ten|limit", "&skip=-1|skip", "&sort=isDefault:asc|sort",
            "&sort=name:up|sort", "&sort=name,name|sort", "&next=short|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&previous=aaaaaaaaaaaaaaaaaaaaaaaa|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip", "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor", "&projectId=NOT|projectId"})
    void givenABadParameter_whenListing_then400NamingIt(String query, String parameter) {
        // when / then
        String uri = query.startsWith("&projectId") ? "/v2.0/flows?" + query.substring(1) : base() + query;
        http.get().uri(uri).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void givenAnUnknownSortField_whenListing_thenTheAllowedFieldsAreListed() {
        http.get().uri(base() + "&sort=color:asc").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("_id, createdAt, description, lastChanged, name, referenceId"));
    }

    @Test
    void givenACursorOfAnotherList_whenUsed_then400() {
        // given
        Project other = project(caller, "Other", 1);
        Map<String, Object> page = get("&limit=2");
        // when / then
        http.get().uri("/v2.0/flows?projectId=" + other.id() + "&next=" + page.get("nextCursor"))
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(other.position()))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("different list"));
    }

    @Test
    void givenProjectsOfTwoOrganisations_whenListing_thenOnlyTheCallersFlowsAndForeignProjectsAre404() {
        // given
        Caller stranger = newOrganisation();
        Project strangers = project(stranger, "Stranger's", 1);
        long strangerPosition = flow(stranger, strangers.id(), Ids.newId(), "theirs", "", 1);
        Project second = project(caller, "Second", 5000);
        position = flow(caller, second.id(), Ids.newId(), "second project's", "", 5000);
        // when / then: without projectId, every flow of the caller's organisation and none of another
        Map<String, Object> all = page("/v2.0/flows?limit=100", caller, position);
        assertThat(all.get("total")).isEqualTo(13);
        assertThat(items(all)).extracting(m -> m.get("name")).contains("second project's").doesNotContain("theirs");
        assertThat(page("/v2.0/flows?limit=100", stranger, strangerPosition).get("total")).isEqualTo(1);
        http.get().uri(base()).header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").isEqualTo("Project " + project.id() + " does not exist.");
        http.get().uri("/v2.0/flows?projectId=" + Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
    }

    @Test
    void givenAFlow_whenReadById_thenTheSameRecordAsInTheListAnd404ForOthers() {
        // given: the list's record, and what only a single read computes (the flow has never been trained and has no
        // sentences, so there is no report and nothing is out of date)
        Map<String, Object> expected = new LinkedHashMap<>(everything().get(0));
        expected.put("feedbackReport", null);
        expected.put("isTrainingOutOfDate", false);
        // when / then
        http.get().uri("/v2.0/flows/{id}?preferredLocaleId={l}", expected.get("_id"), project.primaryLocaleId())
                .header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectHeader().doesNotExist("Deprecation")
                .expectBody(Map.class).isEqualTo(expected);
        http.get().uri("/v2.0/flows/{id}", expected.get("_id")).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").isEqualTo("Flow " + expected.get("_id") + " does not exist.");
        http.get().uri("/v2.0/flows/{id}", Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/flows/{id}", "x".repeat(25)).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.flowId").exists();
    }

    @Test
    void givenAnUpdateAndDeletions_whenRead_thenTheListFollows() {
        // given
        String renamed = flowIds.get(1);
        String deleted = flowIds.get(2);
        append(renamed, new FlowUpdatedEvent(renamed, project.id(), caller.organisationId(), List.of("description"),
                "Alpha", "described", "000000000000000000000abc", 4000));
        position = append(deleted, new FlowDeletedEvent(deleted, project.id(), caller.organisationId(),
                caller.userId(), 4000));
        // when
        Map<String, Object> flow = page("/v2.0/flows/" + renamed, caller, position);
        // then
        assertThat(flow).containsEntry("description", "described").containsEntry("lastChanged", 4000)
                .containsEntry("lastChangedBy", "000000000000000000000abc").containsEntry("createdBy", caller.userId());
        assertThat(ids(get("&limit=100"))).hasSize(11).doesNotContain(deleted);
        // and the project's deletion takes all its flows
        position = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(), caller.userId(), 5000));
        assertThat(page("/v2.0/flows?limit=100", caller, position).get("total")).isEqualTo(0);
    }
}
