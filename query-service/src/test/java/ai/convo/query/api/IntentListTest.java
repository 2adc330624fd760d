package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.testing.TestTokens;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;

/** The specification's intent list, GET /v2.0/flows/{flowId}/intents: every common and intent parameter. */
class IntentListTest extends IntentQuerySupport {

    private Caller caller;
    private Project project;
    private String flow;
    private String base;
    private final List<Seed> seeds = new ArrayList<>();
    private long position;

    @BeforeEach
    void seed() {
        // given: a flow of 12 intents whose every sortable value orders them differently, with ties on createdAt
        caller = newOrganisation();
        project = project(caller, "Intents", 1000);
        flow = newFlow(caller, project.id(), 1000);
        base = "/v2.0/flows/" + flow + "/intents";
        add("kilo", "Zeta", List.of("delta"), false, false, null, 1000);
        add("alpha", "beta", List.of("alpha", "zulu"), true, false, null, 1000);
        add("juliet", "", List.of(), false, true, seeds.get(1).id(), 1001);
        add("bravo", "Alpha", List.of("charlie"), true, true, null, 1001);
        add("india", "gamma", List.of("bravo"), false, false, seeds.get(2).id(), 1002);
        add("charlie", "delta", List.of("echo", "alpha"), false, false, seeds.get(1).id(), 1002);
        add("hotel", "epsilon", List.of("foxtrot"), true, false, null, 1003);
        add("delta", "eta", List.of(), false, true, null, 1004);
        add("golf", "theta", List.of("golf"), false, false, seeds.get(0).id(), 1005);
        add("echo", "iota", List.of(), true, true, null, 1006);
        add("foxtrot", "kappa", List.of("hotel"), false, false, null, 1007);
        add("mike", "lambda", List.of("india"), false, false, null, 1008);
        // "mike" is changed later: its lastChanged is the newest, its description now sorts first
        Seed mike = seeds.remove(seeds.size() - 1);
        Seed changed = new Seed(mike.id(), mike.referenceId(), mike.name(), "aaa", mike.tags(), mike.reject(),
                mike.disabled(), mike.parent(), mike.createdAt(), 5000);
        seeds.add(changed);
        position = append(mike.id(), new IntentUpdatedEvent(mike.id(), flow, project.id(), caller.organisationId(),
                List.of("description"), mike.name(), "aaa", mike.tags(), false, false, null, "", List.of(), "", List.of(),
                Map.of(), ChildFeatures.NONE, null, caller.userId(), 5000));
    }

    private void add(String name, String description, List<String> tags, boolean reject, boolean disabled,
                     String parent, long at) {
        Seed seed = new Seed(Ids.newId(), UUID.randomUUID().toString(), name, description, tags, reject, disabled, parent,
                at, at);
        seeds.add(seed);
        position = intent(caller, project.id(), flow, seed);
    }

    private Map<String, Object> list(String query) {
        return get(base + "?" + query, caller, position);
    }

    private List<String> expected(Function<Seed, Comparable<?>> key, boolean ascending) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Comparator<Seed> order = Comparator.comparing((Function) key);
        order = order.thenComparing(Seed::id);
        if (!ascending) {
            order = order.reversed();
        }
        return seeds.stream().sorted(order).map(Seed::id).toList();
    }

    private static Comparable<?> sortValue(Seed seed, String field) {
        return switch (field) {
            case "_id" -> seed.id();
            case "referenceId" -> seed.referenceId();
            case "name" -> seed.name().toLowerCase(Locale.ROOT);
            case "description" -> seed.description().toLowerCase(Locale.ROOT);
            case "tags" -> String.join(",", seed.tags()).toLowerCase(Locale.ROOT);
            case "isRejectIntent" -> seed.reject();
            case "isDisabled" -> seed.disabled();
            case "parentIntentId" -> seed.parent() == null ? "" : seed.parent();
            case "createdAt" -> seed.createdAt();
            case "lastChanged" -> seed.lastChanged();
            default -> throw new IllegalArgumentException(field);
        };
    }

    // ---- the common list parameters

    @Test
    void givenAFlow_whenListingWithoutParameters_thenCreationOrderInTheEnvelopeWithTheListFields() {
        // when
        Map<String, Object> page = list("");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNull();
        assertThat(page.get("previousCursor")).isNull();
        assertThat(ids(page)).isEqualTo(expected(s -> s.createdAt(), true));
        Map<String, Object> first = items(page).get(0);
        assertThat(first.keySet()).containsExactly("_id", "referenceId", "name", "description", "tags", "isRejectIntent",
                "isDisabled", "localeReference", "parentIntentId", "sentenceCount");
        Seed juliet = seeds.get(2);
        Map<String, Object> item = items(page).stream().filter(i -> i.get("_id").equals(juliet.id())).findFirst().get();
        assertThat(item).containsEntry("name", "juliet").containsEntry("referenceId", juliet.referenceId())
                .containsEntry("description", "").containsEntry("tags", List.of()).containsEntry("isRejectIntent", false)
                .containsEntry("isDisabled", true).containsEntry("parentIntentId", seeds.get(1).id())
                .containsEntry("localeReference", project.primaryLocaleId()).containsEntry("sentenceCount", 0);
    }

    @Test
    void givenTwelveIntents_whenPagingWithLimitAndSkip_thenTheRightSliceAndTheFullTotal() {
        // given
        List<String> all = ids(list("limit=100"));
        // when / then
        Map<String, Object> page = list("limit=5&skip=5");
        assertThat(ids(page)).isEqualTo(all.subList(5, 10));
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(list("limit=5&skip=10"))).isEqualTo(all.subList(10, 12));
        assertThat(ids(list("skip=50"))).isEmpty();
        assertThat(ids(list(""))).hasSize(12);
    }

    @Test
    void givenNames_whenFiltering_thenACaseInsensitiveSubstringOfTheNameWithWildcardsTakenLiterally() {
        // when
        Map<String, Object> page = list("filter=LI");
        // then
        assertThat(items(page)).extracting(m -> m.get("name")).containsExactlyInAnyOrder("juliet", "charlie");
        assertThat(page.get("total")).isEqualTo(2);
        assertThat(items(list("filter=%25"))).isEmpty();
        assertThat(items(list("filter=_"))).isEmpty();
        assertThat(items(list("filter=o&sort=name:desc"))).extracting(m -> m.get("name"))
                .containsExactly("kilo", "hotel", "golf", "foxtrot", "echo", "bravo");
    }

    @ParameterizedTest
    @CsvSource({"name,asc", "name,desc", "description,asc", "description,desc", "tags,asc", "tags,desc",
            "isRejectIntent,asc", "isRejectIntent,desc", "isDisabled,asc", "isDisabled,desc", "parentIntentId,asc",
            "parentIntentId,desc", "referenceId,asc", "referenceId,desc", "createdAt,asc", "createdAt,desc",
            "lastChanged,asc", "lastChanged,desc", "_id,asc", "_id,desc"})
    void givenIntents_whenSortingByAField_thenThatOrderOnOnePageAndOverACursorWalkBothWays(String field, String direction) {
        // given
        List<String> expected = expected(seed -> sortValue(seed, field), direction.equals("asc"));
        String sorted = base + "?sort=" + field + ":" + direction;
        // when / then
        assertThat(ids(get(sorted + "&limit=100", caller, position))).isEqualTo(expected);
        assertThat(walk(sorted + "&limit=5", caller, position)).isEqualTo(expected);
        assertThat(walkBack(sorted + "&limit=5", caller, position)).isEqualTo(expected);
    }

    @Test
    void givenSeveralSortKeys_whenListing_thenTheyApplyInOrder() {
        // given
        Comparator<Seed> order = Comparator.comparing(Seed::disabled)
                .thenComparing(Comparator.comparing((Seed s) -> s.name()).reversed())
                .thenComparing(Comparator.comparing(Seed::id).reversed());
        // when / then
        assertThat(ids(list("limit=100&sort=isDisabled:asc,name:desc")))
                .isEqualTo(seeds.stream().sorted(order).map(Seed::id).toList());
    }

    @Test
    void givenACursorWalk_whenItsBoundaryIsDeletedAndIntentsAreAddedMeanwhile_thenNothingRepeatsOrVanishes() {
        // given
        List<String> before = ids(list("limit=100&sort=name:asc"));
        Map<String, Object> page = list("limit=4&sort=name:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);
        // when: the boundary is deleted, one intent is added before the cursor and one after it
        append(boundary, new IntentDeletedEvent(boundary, flow, project.id(), caller.organisationId(), caller.userId(), 6000));
        intent(caller, project.id(), flow, Ids.newId(), "aaa", null, 6000);
        position = intent(caller, project.id(), flow, Ids.newId(), "zzz", null, 6000);
        while (page.get("nextCursor") != null) {
            page = list("limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        // then
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        assertThat(seen.subList(4, before.size())).isEqualTo(before.subList(4, before.size()));
        assertThat(seen).hasSize(before.size() + 1);
    }

    @Test
    void givenAList_whenAskedForEachMediaType_thenJsonHalXmlCsvOr406() {
        String uri = base + "?limit=3";
        // HAL
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$._links.self.href").isEqualTo("/new" + uri)
                .jsonPath("$._links.next.href").value(h -> assertThat((String) h).contains("next="))
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h).startsWith("/new" + base + "/"))
                .jsonPath("$.total").isEqualTo(12);
        // XML
        String xml = http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>12</total>", "<sentenceCount>0</sentenceCount>");
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        // CSV
        String csv = http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        String[] rows = csv.split("\r\n");
        assertThat(rows).hasSize(4);
        assertThat(rows[0]).isEqualTo("_id,referenceId,name,description,tags,isRejectIntent,isDisabled,localeReference,"
                + "parentIntentId,sentenceCount");
        // JSON without Accept, and an unknown type
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON);
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "limit=0|limit", "limit=101|limit", "limit=ten|limit", "skip=-1|skip", "sort=colour:asc|sort",
            "sort=localeReference:asc|sort", "sort=name:up|sort", "next=short|next", "next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor",
            "next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=1|skip", "parent=short|parent", "parent=AAAAAAAAAAAAAAAAAAAAAAAA|parent",
            "includeChildren=yes|includeChildren", "includeChildren=|includeChildren",
            "includeChildren=true&includeChildren=false|includeChildren", "includeFeedbackReport=1|includeFeedbackReport",
            "preferredLocaleId=abc|preferredLocaleId", "preferredLocaleId=aaaaaaaaaaaaaaaaaaaaaaaaa|preferredLocaleId"})
    void givenAMalformedParameter_whenListing_then400NamingIt(String query, String parameter) {
        // when / then
        Map<String, Object> problem = problem(base + "?" + query, caller, position, 400);
        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat((Map<String, Object>) problem.get("details")).containsKey(parameter);
    }

    @Test
    void givenAnUnknownSortField_whenListing_thenThe400ListsTheSortableFields() {
        // when
        Map<String, Object> problem = problem(base + "?sort=sentenceCount:asc", caller, position, 400);
        // then
        assertThat((String) problem.get("detail")).contains("_id, createdAt, description, isDisabled, isRejectIntent, "
                + "lastChanged, name, parentIntentId, referenceId, tags");
    }

    @Test
    void givenACursor_whenUsedOnAnotherList_then400() {
        // given
        String next = (String) list("limit=2").get("nextCursor");
        // when / then: another flow, or the same flow with another parent scope
        String other = newFlow(caller, project.id(), 1000);
        position = intent(caller, project.id(), other, Ids.newId(), "x", null, 1000);
        assertThat((String) problem("/v2.0/flows/" + other + "/intents?next=" + next, caller, position, 400).get("detail"))
                .contains("different list");
        problem(base + "?includeChildren=true&next=" + next, caller, position, 400);
        problem(base + "?parent=" + seeds.get(1).id() + "&next=" + next, caller, position, 400);
    }

    // ---- includeFeedbackReport

    @Test
    void givenIncludeFeedbackReport_whenTrue_thenEveryItemHasAFeedbackReportAndWhenFalseTheUsualList() {
        // when
        Map<String, Object> page = list("includeFeedbackReport=true&limit=100");
        // then: the flow has no sentences, so every intent's report is that of an intent without sentences
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(items(page)).allSatisfy(item -> assertThat(item.get("feedbackReport")).isEqualTo(Map.of(
                "findings", List.of(Map.of("type", "fewSentences")), "info", Map.of("fScore", 0.0))));
        assertThat(list("includeFeedbackReport=false").get("total")).isEqualTo(12);
        assertThat(items(list("includeFeedbackReport=FALSE"))).allSatisfy(item -> assertThat(item)
                .doesNotContainKey("feedbackReport"));
    }

    // ---- tenancy and the flow

    @Test
    void givenFlowsOutOfReach_whenListing_then404AndMalformedFlowIdIs400() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        Map<String, Object> foreign = problem(base, stranger, position, 404);
        assertThat(foreign).containsEntry("code", "1000").containsKey("logLevel");
        problem(base + "?includeFeedbackReport=true", stranger, position, 404);
        problem("/v2.0/flows/" + Ids.newId() + "/intents", caller, position, 404);
        assertThat((Map<String, Object>) problem("/v2.0/flows/NOT-A-FLOW/intents", caller, position, 400).get("details"))
                .containsKey("flowId");
        problem(base + "/" + seeds.get(0).id(), stranger, position, 404);
    }

    @Test
    void givenTheIntentList_whenCalledWithABearerToken_then401BecauseItTakesOnlyTheDefaultSchemes() {
        http.get().uri(base).header("Authorization", "Bearer " + TestTokens.bearer(caller.userId()))
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isUnauthorized();
        http.get().uri(base + "?api_key=" + caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk();
    }

    @Test
    void givenADeletedFlowOrProject_whenListing_then404() {
        // given
        String second = newFlow(caller, project.id(), 1000);
        intent(caller, project.id(), second, Ids.newId(), "x", null, 1000);
        // when
        position = append(flow, new FlowDeletedEvent(flow, project.id(), caller.organisationId(), caller.userId(), 7000));
        // then
        problem(base, caller, position, 404);
        assertThat(get("/v2.0/flows/" + second + "/intents", caller, position).get("total")).isEqualTo(1);
        position = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(), caller.userId(), 8000));
        problem("/v2.0/flows/" + second + "/intents", caller, position, 404);
    }

    // ---- one intent

    @Test
    void givenAnIntent_whenReadAlone_thenTheFullRecordAnd404ForOtherFlowsOrUnknownIds() {
        // given
        Seed alpha = seeds.get(1);
        // when
        Map<String, Object> intent = get(base + "/" + alpha.id(), caller, position);
        // then
        assertThat(intent.keySet()).containsExactly("_id", "referenceId", "name", "description", "tags",
                "isRejectIntent", "isDisabled", "localeReference", "parentIntentId", "condition",
                "confirmationSentences", "disambiguationSentence", "rules", "data", "childFeatures",
                "biasTowardsParentOrChildIntents", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(intent).containsEntry("name", "alpha").containsEntry("tags", List.of("alpha", "zulu"))
                .containsEntry("isRejectIntent", true).containsEntry("localeReference", project.primaryLocaleId())
                .containsEntry("childFeatures", false).containsEntry("data", Map.of())
                .containsEntry("createdAt", 1000).containsEntry("createdBy", caller.userId());
        String other = newFlow(caller, project.id(), 1000);
        problem("/v2.0/flows/" + other + "/intents/" + alpha.id(), caller, position, 404);
        problem(base + "/" + Ids.newId(), caller, position, 404);
        assertThat((Map<String, Object>) problem(base + "/short", caller, position, 400).get("details")).containsKey("intentId");
    }
}
