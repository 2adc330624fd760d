package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * The specification's function list, GET /v2.0/functions (HAL+JSON by default), and the function read by id:
 * list parameters, sort fields, cursors, media types, the optional projectId and tenancy.
 */
class FunctionListTest extends QueryTestBase {

    @Autowired
    EventProcessingConfiguration processing;

    private Caller caller;
    private Project project;
    private Project second;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Functions", 1000);
        second = project(caller, "Second", 1000);
        // 11 functions: names that sort differently from creation order, ties on createdAt, some disabled.
        String[] names = {"kilo", "alpha", "juliet", "bravo", "india", "charlie", "hotel", "delta", "golf", "echo", "fox_trot"};
        for (int i = 0; i < names.length; i++) {
            position = function(project, Ids.newId(), names[i], "return " + i + ";", i % 3 == 0, 1000 + i / 2);
        }
        // Two more in the second project, one of them renamed later.
        function(second, Ids.newId(), "other one", "", false, 900);
        String renamed = Ids.newId();
        function(second, renamed, "other two", "", false, 901);
        position = append(renamed, new FunctionUpdatedEvent(renamed, second.id(), caller.organisationId(), List.of("name"),
                "other renamed", "", true, caller.userId(), 2000));
    }

    private long function(Project in, String id, String name, String code, boolean disabled, long at) {
        return append(id, new FunctionCreatedEvent(id, in.id(), caller.organisationId(), UUID.randomUUID().toString(),
                name, code, disabled, caller.userId(), at));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(String query) {
        return http.get().uri("/v2.0/functions?projectId=" + project.id() + query)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .accept(MediaType.APPLICATION_JSON)
                .exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }



    private List<Map<String, Object>> everything() {
        return items(get("&limit=100"));
    }

    private List<Object> walk(String query) {
        return ListPages.walk(this::get, query, 4);
    }

    @Test
    void givenFunctions_whenListedWithoutAccept_thenHalJsonInCreationOrderWithTheEnvelopeAndLinks() {
        // given: 11 functions in the project
        // when / then
        http.get().uri("/v2.0/functions?projectId=" + project.id() + "&limit=5").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$.total").isEqualTo(11)
                .jsonPath("$.items.length()").isEqualTo(5)
                .jsonPath("$.nextCursor").isNotEmpty()
                .jsonPath("$.previousCursor").isEmpty()
                .jsonPath("$._links.self.href").isEqualTo("/new/v2.0/functions?projectId=" + project.id() + "&limit=5")
                .jsonPath("$._links.next.href").value(h -> assertThat((String) h).contains("next="))
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h).startsWith("/new/v2.0/functions/"));
        Map<String, Object> page = get("");
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        List<Map<String, Object>> expected = new ArrayList<>(items(page));
        expected.sort(Comparator.comparing((Map<String, Object> m) -> ((Number) m.get("createdAt")).longValue())
                .thenComparing(m -> (String) m.get("_id")));
        assertThat(items(page)).isEqualTo(expected);
        assertThat(items(page).get(0).keySet()).containsExactly("_id", "name", "code", "referenceId", "isDisabled",
                "createdAt", "lastChanged", "createdBy", "lastChangedBy");
    }

    @Test
    void givenNoProjectId_whenListed_thenEveryFunctionOfTheOrganisationAndNoneOfAnother() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        http.get().uri("/v2.0/functions?limit=100").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).accept(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(13)
                .jsonPath("$.items[?(@.name == 'other renamed')].isDisabled").isEqualTo(List.of(true));
        http.get().uri("/v2.0/functions?limit=100").header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
        http.get().uri("/v2.0/functions?projectId=" + second.id()).header("X-API-Key", caller.apiKey())
                .accept(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(2);
    }

    @Test
    void givenAnUnknownForeignOrMalformedProjectId_whenListed_then404Or400() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        http.get().uri("/v2.0/functions?projectId=" + project.id()).header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isNotFound().expectBody().jsonPath("$.logLevel").exists();
        http.get().uri("/v2.0/functions?projectId=" + Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/functions?projectId=NOT").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
    }

    @Test
    void givenElevenFunctions_whenPagedWithLimitAndSkip_thenTheRightSlices() {
        // given
        List<String> all = ids(get("&limit=100"));
        // when
        Map<String, Object> page = get("&limit=5&skip=5");
        // then
        assertThat(ids(page)).isEqualTo(all.subList(5, 10));
        assertThat(page.get("total")).isEqualTo(11);
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(get("&limit=5&skip=10"))).isEqualTo(all.subList(10, 11));
        assertThat(ids(get("&skip=50"))).isEmpty();
    }

    @Test
    void givenNames_whenFiltered_thenACaseInsensitiveSubstringOfTheNameOnly() {
        // given / when
        Map<String, Object> page = get("&filter=LI");
        // then
        assertThat(items(page)).extracting(m -> m.get("name")).containsExactlyInAnyOrder("juliet", "charlie");
        assertThat(page.get("total")).isEqualTo(2);
        assertThat(items(get("&filter=_"))).extracting(m -> m.get("name")).containsExactly("fox_trot");
        assertThat(items(get("&filter=return"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"name,asc", "name,desc", "isDisabled,asc", "isDisabled,desc", "createdAt,asc", "createdAt,desc",
            "lastChanged,asc", "lastChanged,desc", "referenceId,asc", "referenceId,desc", "_id,asc", "_id,desc"})
    void givenElevenFunctions_whenSortedByAnyFieldInEitherDirection_thenPagesAndCursorWalksFollowThatOrder(
            String field, String direction) {
        // given
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        // when / then
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        assertThat(walk("&limit=4&sort=" + field + ":" + direction)).isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }

    @Test
    void givenSeveralSortKeys_whenSorted_thenEachKeyBreaksTheTiesOfThePrevious() {
        // given
        List<Map<String, Object>> expected = new ArrayList<>(everything());
        expected.sort(Comparator.comparing((Map<String, Object> m) -> (Boolean) m.get("isDisabled")).reversed()
                .thenComparing(Comparator.comparing((Map<String, Object> m) -> (String) m.get("name"))));
        // when / then
        assertThat(items(get("&limit=100&sort=isDisabled:desc,name:asc"))).isEqualTo(expected);
    }


    @Test
    void givenACursorWalk_whenTurningBack_thenPreviousPagesAreExactlyTheSame() {
        // given
        Map<String, Object> first = get("&limit=4&sort=name:desc");
        Map<String, Object> second = get("&limit=4&next=" + first.get("nextCursor"));
        Map<String, Object> third = get("&limit=4&next=" + second.get("nextCursor"));
        assertThat(third.get("nextCursor")).isNull();
        // when / then
        assertThat(ids(get("&limit=4&previous=" + third.get("previousCursor")))).isEqualTo(ids(second));
        Map<String, Object> back = get("&limit=4&previous=" + second.get("previousCursor"));
        assertThat(ids(back)).isEqualTo(ids(first));
        assertThat(back.get("previousCursor")).isNull();
    }

    @Test
    void givenACursorWalk_whenFunctionsAreInsertedAndTheBoundaryDeleted_thenNothingRepeatsOrVanishes() {
        // given
        List<String> before = ids(get("&limit=100&sort=name:asc"));
        Map<String, Object> page = get("&limit=4&sort=name:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);
        // when
        append(boundary, new FunctionDeletedEvent(boundary, project.id(), caller.organisationId(), caller.userId(), 3000));
        function(project, Ids.newId(), "aaa", "", false, 3000);
        position = function(project, Ids.newId(), "zzz", "", false, 3000);
        while (page.get("nextCursor") != null) {
            page = get("&limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        // then
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        List<String> expectedRest = before.subList(4, before.size());
        assertThat(seen.subList(4, 4 + expectedRest.size())).isEqualTo(expectedRest);
        assertThat(seen).hasSize(before.size() + 1);
    }

    @Test
    void givenAList_whenAskedForEachMediaType_thenJsonXmlCsvAnd406Otherwise() {
        // given
        String base = "/v2.0/functions?projectId=" + project.id() + "&limit=3";
        // when / then
        http.get().uri(base).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$._links").doesNotExist().jsonPath("$.items.length()").isEqualTo(3);
        String xml = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>11</total>", "<isDisabled>");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        String csv = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")).hasSize(4);
        assertThat(csv.split("\r\n")[0]).isEqualTo("_id,name,code,referenceId,isDisabled,createdAt,lastChanged,createdBy,"
                + "lastChangedBy");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("*/*"))
                .exchange().expectStatus().isOk().expectHeader().contentType("application/hal+json");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "&limit=0|limit", "&limit=101|limit", "&limit=ten|limit", "&skip=-1|skip", "&sort=code:asc|sort",
            "&sort=name:up|sort", "&sort=name,name|sort", "&next=short|next", "&previous=short|previous",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&previous=aaaaaaaaaaaaaaaaaaaaaaaa|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip", "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor"})
    void givenABadParameter_whenListing_then400NamingIt(String query, String parameter) {
        // given / when / then
        http.get().uri("/v2.0/functions?projectId=" + project.id() + query).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void givenAnUnknownSortField_whenListing_thenThe400ListsTheSortableFields() {
        // given / when / then
        http.get().uri("/v2.0/functions?sort=code:asc").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("_id, createdAt, isDisabled, lastChanged, name, referenceId"));
    }

    @Test
    void givenACursorOfTheOrganisationWideList_whenUsedOnAProjectsList_then400() {
        // given
        @SuppressWarnings("unchecked")
        Map<String, Object> page = http.get().uri("/v2.0/functions?limit=2").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        // when / then
        http.get().uri("/v2.0/functions?projectId=" + project.id() + "&next=" + page.get("nextCursor"))
                .header("X-API-Key", caller.apiKey()).exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("different list"));
    }

    @Test
    void givenAFunction_whenReadById_thenItIsTheListItemAsJsonAndOtherOrganisationsGet404() {
        // given
        Map<String, Object> expected = everything().get(0);
        // when / then
        http.get().uri("/v2.0/functions/{id}", expected.get("_id")).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(Map.class).isEqualTo(expected);
        http.get().uri("/v2.0/functions/{id}", expected.get("_id")).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/functions/{id}", Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/functions/{id}", "x".repeat(23)).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.functionId").exists();
        http.get().uri("/v2.0/functions/{id}", expected.get("_id")).header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._links.self.href")
                .isEqualTo("/new/v2.0/functions/" + expected.get("_id"));
    }

    @Test
    void givenAWrite_whenReadWithItsEventPosition_thenTheReadSeesIt() {
        // given
        String id = Ids.newId();
        long written = function(project, id, "fresh", "x".repeat(500_000), false, 5000);
        // when / then: a client that buffers more than WebClient's default 256 KiB
        http.mutate().codecs(c -> c.defaultCodecs().maxInMemorySize(2 * 1024 * 1024)).build()
                .get().uri("/v2.0/functions/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(written)).exchange()
                .expectStatus().isOk().expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody().jsonPath("$.name").isEqualTo("fresh")
                .jsonPath("$.code").value(code -> assertThat((String) code).hasSize(500_000));
    }

    @Test
    void givenADeletedProject_whenItsFunctionsAreListedOrRead_thenTheyAreGone() {
        // given
        String functionId = ids(get("&limit=1")).get(0);
        // when
        long deleted = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(),
                caller.userId(), 9000));
        // then
        http.get().uri("/v2.0/functions?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(deleted)).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/functions/{id}", functionId).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/functions?limit=100").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(2);
    }

    @Test
    void givenTheProjection_whenItsSequencingPolicyIsAsked_thenAProjectsEventsShareOneSequence() {
        // given
        String token = Ids.newId();
        var policy = processing.sequencingPolicy(ai.convo.query.function.FunctionProjection.GROUP);
        // when
        Object key = policy.getSequenceIdentifierFor(new GenericDomainEventMessage<>(
                "Any", token, 0, new FunctionCreatedEvent(token, project.id(), caller.organisationId(), "r", "n", "", false, caller.userId(), 1)));
        Object deletion = policy.getSequenceIdentifierFor(new GenericDomainEventMessage<>(
                "Any", project.id(), 5, new ProjectDeletedEvent(project.id(), caller.organisationId(), caller.userId(), 1)));
        // then: the project, not the aggregate, so the project's deletion is never applied before its contents
        assertThat(key).isEqualTo(project.id()).isEqualTo(deletion);
    }
}
