package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
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
import org.springframework.test.web.reactive.server.WebTestClient;

/** The specification's (deprecated) state list GET /v2.0/flows/{flowId}/states, and GET of one state. */
class StateListTest extends FlowQuerySupport {

    private static final String DEPRECATION = "@1782864000";
    private static final String SUNSET = "Thu, 01 Jul 2027 00:00:00 GMT";
    private static final String LINK =
            "<https://docs.example.com/migrations/states-to-intent-conditions>; rel=\"deprecation\"; type=\"text/html\"";

    private Caller caller;
    private Project project;
    private String flowId;
    private List<String> stateIds;
    private List<String> intents;
    private long position;

    @BeforeEach
    void seed() {
        // given: a flow with 12 states; names, types, intents, authors and times sort differently, some ties
        caller = newOrganisation();
        project = project(caller, "States", 1000);
        flowId = Ids.newId();
        position = flow(caller, project.id(), flowId, "Main", "", 1000);
        intents = List.of("00000000000000000000000a", "00000000000000000000000b", "00000000000000000000000c");
        String[] names = {"kilo", "Alpha", "juliet", "bravo", "india", "charlie", "hotel", "delta", "golf", "echo",
                "fox_trot", "lima"};
        String[] authors = {caller.userId(), Ids.newId(), Ids.newId()};
        stateIds = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            String stateId = Ids.newId();
            stateIds.add(stateId);
            List<String> named = switch (i % 4) {
                case 0 -> List.of();
                case 1 -> List.of(intents.get(0));
                case 2 -> List.of(intents.get(1), intents.get(0));
                default -> List.of(intents.get(2));
            };
            position = state(caller, project.id(), flowId, stateId, names[i], i % 3 == 0 ? "whitelist" : "blacklist",
                    i == 4, named, authors[i % 3], 1000 + i / 2);
        }
        // one state changed later by someone else, so lastChanged and lastChangedBy differ from creation
        position = append(flowId, new StateUpdatedEvent(flowId, project.id(), caller.organisationId(), stateIds.get(0),
                List.of("name"), "zulu", "whitelist", false, List.of(), "0000000000000000000000ff", 2000));
    }

    private String base() {
        return "/v2.0/flows/" + flowId + "/states?x=1";
    }

    private Map<String, Object> get(String query) {
        return page(base() + query, caller, position);
    }

    private List<Map<String, Object>> everything() {
        return items(get("&limit=100"));
    }

    private Map<String, Object> one(String stateId) {
        return page("/v2.0/flows/" + flowId + "/states/" + stateId, caller, position);
    }

    @Test
    void givenStates_whenListedWithoutParameters_thenCreationOrderInTheEnvelope() {
        // when
        Map<String, Object> page = get("");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNull();
        assertThat(items(page)).isEqualTo(sortedBy(items(page), "createdAt", true));
        assertThat(items(page).get(0).keySet()).containsExactly("_id", "name", "referenceId", "isDefault", "type",
                "intentIds", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(items(page)).filteredOn(s -> Boolean.TRUE.equals(s.get("isDefault"))).extracting(s -> s.get("_id"))
                .containsExactly(stateIds.get(4));
        assertThat(one(stateIds.get(2)).get("intentIds")).isEqualTo(List.of(intents.get(1), intents.get(0)));
    }

    @Test
    void givenMoreThan25States_whenListedWithoutLimit_then25PerPage() {
        // given
        String big = Ids.newId();
        long at = flow(caller, project.id(), big, "Big", "", 1);
        for (int i = 0; i < 27; i++) {
            at = state(caller, project.id(), big, Ids.newId(), "s" + i, "blacklist", false, List.of(), caller.userId(), i);
        }
        // when
        Map<String, Object> first = page("/v2.0/flows/" + big + "/states", caller, at);
        // then
        assertThat(items(first)).hasSize(25);
        assertThat(first.get("total")).isEqualTo(27);
        Map<String, Object> rest = page("/v2.0/flows/" + big + "/states?next=" + first.get("nextCursor"), caller, at);
        assertThat(items(rest)).hasSize(2);
        assertThat(rest.get("nextCursor")).isNull();
    }

    @Test
    void givenStates_whenPagedWithLimitAndSkip_thenTheRightSlice() {
        // given
        List<String> all = ids(get("&limit=100"));
        // when
        Map<String, Object> page = get("&limit=5&skip=5");
        // then
        assertThat(ids(page)).isEqualTo(all.subList(5, 10));
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(get("&limit=5&skip=10"))).isEqualTo(all.subList(10, 12));
        assertThat(ids(get("&skip=50"))).isEmpty();
    }

    @Test
    void givenStates_whenFiltered_thenCaseInsensitiveSubstringOfTheName() {
        // when
        Map<String, Object> page = get("&filter=LI");
        // then
        assertThat(items(page)).extracting(m -> m.get("name")).containsExactlyInAnyOrder("juliet", "charlie", "lima");
        assertThat(page.get("total")).isEqualTo(3);
        assertThat(items(get("&filter=_"))).extracting(m -> m.get("name")).containsExactly("fox_trot");
        assertThat(items(get("&filter=%25"))).isEmpty();
        assertThat(items(get("&filter=alpha"))).extracting(m -> m.get("name")).containsExactly("Alpha");
    }

    @ParameterizedTest
    @CsvSource({"name,asc", "name,desc", "referenceId,asc", "referenceId,desc", "isDefault,asc", "isDefault,desc",
            "type,asc", "type,desc", "intentIds,asc", "intentIds,desc", "createdAt,asc", "createdAt,desc",
            "lastChanged,asc", "lastChanged,desc", "createdBy,asc", "createdBy,desc", "lastChangedBy,asc",
            "lastChangedBy,desc", "_id,asc", "_id,desc"})
    void givenStates_whenSortedByAField_thenThatOrderInBothDirectionsAlsoWhenWalkedWithCursors(String field, String direction) {
        // given
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        // when / then
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        assertThat(walk(base(), "&limit=5&sort=" + field + ":" + direction, 5, caller, position))
                .isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }

    @Test
    void givenStates_whenSortedBySeveralKeys_thenEachKeyBreaksTheTiesOfTheOneBefore() {
        // given
        List<Map<String, Object>> expected = new ArrayList<>(everything());
        expected.sort(java.util.Comparator.comparing((Map<String, Object> m) -> (String) m.get("type"))
                .thenComparing(java.util.Comparator.comparing((Map<String, Object> m) -> ((String) m.get("name"))
                        .toLowerCase()).reversed())
                .thenComparing(java.util.Comparator.comparing((Map<String, Object> m) -> (String) m.get("_id")).reversed()));
        // when / then
        assertThat(items(get("&limit=100&sort=type:asc,name:desc"))).isEqualTo(expected);
    }

    @Test
    void givenStates_whenWalkedBackWithPrevious_thenTheSamePages() {
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
    }

    @Test
    void givenACursorWalk_whenStatesAreDeletedAndCreatedMeanwhile_thenNoStateRepeatsOrVanishes() {
        // given
        List<String> before = ids(get("&limit=100&sort=name:asc"));
        Map<String, Object> page = get("&limit=4&sort=name:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);
        // when
        append(flowId, new StateDeletedEvent(flowId, project.id(), caller.organisationId(), boundary, caller.userId(), 3000));
        state(caller, project.id(), flowId, Ids.newId(), "aaa", "blacklist", false, List.of(), caller.userId(), 3000);
        position = state(caller, project.id(), flowId, Ids.newId(), "zzzz", "blacklist", false, List.of(),
                caller.userId(), 3000);
        while (page.get("nextCursor") != null) {
            page = get("&limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        // then
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        assertThat(seen.subList(4, before.size())).isEqualTo(before.subList(4, before.size()));
        assertThat(seen).hasSize(before.size() + 1);
    }

    @Test
    void givenStates_whenAskedForEveryMediaType_thenEachRendersTheList() {
        // given
        String uri = base() + "&limit=3";
        // when / then
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$._links.self.href").isEqualTo("/new" + uri)
                .jsonPath("$._links.next.href").value(h -> assertThat((String) h).contains("next="))
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h)
                        .startsWith("/new/v2.0/flows/" + flowId + "/states/"));
        String xml = http.get().uri(base() + "&sort=intentIds:desc&limit=1").header("X-API-Key", caller.apiKey())
                .accept(MediaType.APPLICATION_XML).exchange().expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>12</total>",
                "<intentIds><item>" + intents.get(2) + "</item></intentIds>");
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        String csv = http.get().uri(base() + "&limit=100").header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("text/csv")).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        String[] rows = csv.split("\r\n");
        assertThat(rows).hasSize(13);
        assertThat(rows[0]).isEqualTo("_id,name,referenceId,isDefault,type,intentIds,createdAt,lastChanged,createdBy,"
                + "lastChangedBy");
        assertThat(csv).contains(",\"[\"\"" + intents.get(1) + "\"\",\"\"" + intents.get(0) + "\"\"]\",");
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406).expectHeader().valueEquals("Deprecation", DEPRECATION);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "&limit=0|limit", "&limit=101|limit", "&limit=ten|limit", "&skip=-1|skip", "&sort=description:asc|sort",
            "&sort=name:up|sort", "&sort=name,name|sort", "&sort=|sort", "&next=short|next", "&previous=short|previous",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&previous=aaaaaaaaaaaaaaaaaaaaaaaa|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip", "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor",
            "&filter=" + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|filter"})
    void givenABadParameter_whenListing_then400NamingItWithTheDeprecationHeaders(String query, String parameter) {
        http.get().uri(base() + query).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectHeader().valueEquals("Deprecation", DEPRECATION)
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void givenAnUnknownSortField_whenListing_thenTheAllowedFieldsAreListed() {
        http.get().uri(base() + "&sort=color:asc").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("_id, createdAt, "
                        + "createdBy, intentIds, isDefault, lastChanged, lastChangedBy, name, referenceId, type"));
    }

    @Test
    void givenACursorOfAnotherFlowsList_whenUsed_then400() {
        // given
        String other = Ids.newId();
        long at = flow(caller, project.id(), other, "Other", "", 1);
        Map<String, Object> page = get("&limit=2");
        // when / then
        http.get().uri("/v2.0/flows/" + other + "/states?next=" + page.get("nextCursor"))
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(at))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("different list"));
    }

    @Test
    void givenAFlowOfAnotherOrganisationOrNone_whenListingItsStates_then404OrA400ForAMalformedId() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        http.get().uri("/v2.0/flows/" + flowId + "/states").header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isNotFound()
                .expectHeader().valueEquals("Deprecation", DEPRECATION)
                .expectBody().jsonPath("$.detail").isEqualTo("Flow " + flowId + " does not exist.");
        http.get().uri("/v2.0/flows/" + Ids.newId() + "/states").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/flows/NOT/states").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.flowId").exists();
    }

    @Test
    void givenAState_whenReadById_thenTheSameRecordAsInTheListAnd404ThroughAnotherFlowOrOrganisation() {
        // given
        Map<String, Object> expected = new LinkedHashMap<>(everything().get(3));
        String other = Ids.newId();
        long at = flow(caller, project.id(), other, "Other", "", 1);
        // when / then
        assertThat(one((String) expected.get("_id"))).isEqualTo(expected);
        http.get().uri("/v2.0/flows/{f}/states/{s}", other, expected.get("_id")).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(at))
                .exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").isEqualTo("State " + expected.get("_id") + " does not exist in flow "
                        + other + ".");
        http.get().uri("/v2.0/flows/{f}/states/{s}", flowId, expected.get("_id"))
                .header("X-API-Key", newOrganisation().apiKey()).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/flows/{f}/states/{s}", flowId, "x".repeat(25)).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.stateId").exists();
        http.get().uri("/v2.0/flows/{f}/states/{s}", flowId, expected.get("_id")).header("X-API-Key", caller.apiKey())
                .accept(MediaType.APPLICATION_XML).exchange().expectStatus().isOk()
                .expectBody(String.class).value(xml -> assertThat(xml).startsWith("<state><_id>" + expected.get("_id")));
    }

    @Test
    void everyStateReadAnswersWithTheDeprecationHeadersAndFlowReadsWithout() {
        // Every read waits for the seeded events: a 404 for a flow not yet read would be a different answer.
        String at = Long.toString(position);
        // when
        List<WebTestClient.ResponseSpec> deprecated = List.of(
                http.get().uri(base()).header("X-API-Key", caller.apiKey()).header("X-Event-Position", at).exchange(),
                http.get().uri("/v2.0/flows/{f}/states/{s}", flowId, stateIds.get(1)).header("X-API-Key", caller.apiKey())
                        .header("X-Event-Position", at).exchange(),
                http.get().uri("/v2.0/flows/{f}/states/", flowId).header("X-API-Key", caller.apiKey())
                        .header("X-Event-Position", at).exchange(),
                http.get().uri("/v2.0/flows/{f}/states/{s}", flowId, Ids.newId()).header("X-API-Key", caller.apiKey())
                        .header("X-Event-Position", at).exchange(),
                http.get().uri(base()).exchange());
        // then
        for (WebTestClient.ResponseSpec answer : deprecated) {
            answer.expectHeader().valueEquals("Deprecation", DEPRECATION)
                    .expectHeader().valueEquals("Sunset", SUNSET)
                    .expectHeader().valueEquals("Link", LINK);
        }
        http.get().uri("/v2.0/flows/{f}", flowId).header("X-API-Key", caller.apiKey()).header("X-Event-Position", at)
                .exchange().expectStatus().isOk()
                .expectHeader().doesNotExist("Deprecation").expectHeader().doesNotExist("Sunset")
                .expectHeader().doesNotExist("Link");
        http.get().uri("/v2.0/flows?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", at).exchange()
                .expectStatus().isOk().expectHeader().doesNotExist("Deprecation");
        http.get().uri("/v2.0/locales?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", at).exchange()
                .expectStatus().isOk().expectHeader().doesNotExist("Deprecation");
        // and CORS lets a browser read them
        http.get().uri(base()).header("X-API-Key", caller.apiKey()).header("Origin", "https://example.org").exchange()
                .expectHeader().value("Access-Control-Expose-Headers", h -> assertThat(h).contains("Deprecation",
                        "Sunset", "Link"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenADemotionAnIntentDeletionAndDeletions_whenRead_thenTheListFollows() {
        // given: the default moves from state 4 to state 5 (the update of 5 and the demotion of 4)
        String oldDefault = stateIds.get(4);
        String newDefault = stateIds.get(5);
        append(flowId, new StateUpdatedEvent(flowId, project.id(), caller.organisationId(), newDefault,
                List.of("isDefault"), "charlie", "blacklist", true, List.of(intents.get(0)), caller.userId(), 3000));
        append(flowId, new DefaultStateChangedEvent(flowId, project.id(), caller.organisationId(), oldDefault, newDefault,
                caller.userId(), 3000));
        // and intent 0 is deleted (states 1, 2, 5, 9 named it)
        position = append(intents.get(0), new IntentDeletedEvent(intents.get(0), flowId, project.id(),
                caller.organisationId(), caller.userId(), 3100));
        // when
        List<Map<String, Object>> all = everything();
        // then
        assertThat(all).filteredOn(s -> Boolean.TRUE.equals(s.get("isDefault"))).extracting(s -> s.get("_id"))
                .containsExactly(newDefault);
        assertThat(one(oldDefault)).containsEntry("isDefault", false).containsEntry("lastChanged", 3000);
        assertThat(all).allSatisfy(s -> assertThat((List<Object>) s.get("intentIds")).doesNotContain(intents.get(0)));
        assertThat(one(stateIds.get(2)).get("intentIds")).isEqualTo(List.of(intents.get(1)));
        assertThat(one(stateIds.get(3)).get("intentIds")).isEqualTo(List.of(intents.get(2)));
        // a state's deletion, then the flow's, then the project's
        position = append(flowId, new StateDeletedEvent(flowId, project.id(), caller.organisationId(), stateIds.get(3),
                caller.userId(), 4000));
        assertThat(get("").get("total")).isEqualTo(11);
        position = append(flowId, new FlowDeletedEvent(flowId, project.id(), caller.organisationId(), caller.userId(), 4000));
        http.get().uri(base()).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM state_view WHERE flow_id = ?", Integer.class, flowId)).isZero();
    }

    @Test
    void givenAProjectWithFlowsAndStates_whenTheProjectIsDeleted_thenItsStatesAreGone() {
        // given
        String second = Ids.newId();
        flow(caller, project.id(), second, "Second", "", 1);
        state(caller, project.id(), second, Ids.newId(), "s", "blacklist", false, List.of(), caller.userId(), 1);
        // when
        position = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(), caller.userId(), 5000));
        // then
        http.get().uri(base()).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM state_view WHERE project_id = ?", Integer.class,
                project.id())).isZero();
    }
}
