package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The (deprecated) state writes over real HTTP, on the official client's paths. */
class StateApiTest extends FlowApiSupport {

    private String flowId;
    private String statesPath;
    private String greet;
    private String order;

    @BeforeEach
    void flow() {
        flowId = (String) newFlow("States").get("_id");
        statesPath = "/v2.0/flows/" + flowId + "/states";
        greet = intentOf(flowId, "greet");
        order = intentOf(flowId, "order");
    }

    private Map<String, Object> state(String name, Object... more) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name));
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return createState(ADMIN_KEY, flowId, body);
    }

    private String path(Map<String, Object> state) {
        return statesPath + "/" + state.get("_id");
    }

    // ---- create

    @Test
    void givenAFlow_whenCreatingAState_then201WithTheRecordLocationEventPositionAndDefaults() {
        // when
        var result = http.post().uri(statesPath).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Start"))
                .exchange()
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().exists("X-Event-Position")
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> state = result.getResponseBody();
        assertThat(state.keySet()).containsExactly("_id", "name", "referenceId", "isDefault", "type", "intentIds",
                "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(state).containsEntry("name", "Start").containsEntry("isDefault", false)
                .containsEntry("type", "blacklist").containsEntry("intentIds", List.of())
                .containsEntry("createdBy", adminUserId()).containsEntry("lastChangedBy", adminUserId());
        assertThat((String) state.get("_id")).matches("^[a-z0-9]{24}$");
        assertThat((String) state.get("referenceId")).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new" + statesPath + "/" + state.get("_id"));
    }

    @Test
    void givenIntentsOfTheFlow_whenCreatingAWhitelistStateNamingThem_thenTheyAreRecordedOnce() {
        // when
        Map<String, Object> state = state("Ordering", "type", "whitelist", "intentIds", List.of(order, greet, order));
        // then
        assertThat(state).containsEntry("type", "whitelist").containsEntry("intentIds", List.of(order, greet));
    }

    @Test
    void givenAnIntentOfAnotherFlowAndAnUnknownOne_whenCreatingAState_then400NamingThem() {
        // given
        String otherFlow = (String) newFlow("Other").get("_id");
        String foreign = intentOf(otherFlow, "foreign");
        String unknown = "dddddddddddddddddddddddd";
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("POST", statesPath, ADMIN_KEY,
                Map.of("name", "Bad", "intentIds", List.of(greet, foreign, unknown))), 400);
        // then
        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat((String) problem.get("detail")).contains(foreign, unknown, "not intents of flow " + flowId)
                .doesNotContain(greet);
        assertThat(problem.get("details")).asInstanceOf(MAP).containsOnlyKeys("intentIds");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnInvalidBody_whenCreatingAState_then400NamingEveryBadFieldAtOnceAndNothingIsWritten() {
        // given
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("POST", statesPath, ADMIN_KEY, Map.of("type", "greylist",
                "isDefault", "yes", "intentIds", List.of(greet, 5, "short"), "colour", "red")), 400);
        // then
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) problem.get("details");
        assertThat(details).containsOnlyKeys("name", "type", "isDefault", "intentIds", "colour");
        assertThat((String) details.get("type")).contains("blacklist, whitelist", "'greylist'");
        assertThat((String) details.get("intentIds")).contains("item 1 is 5", "item 2 is 'short'");
        assertThat((String) details.get("colour")).contains("intentIds, isDefault, name, type");
        assertThat((String) problem.get("detail")).startsWith("The request body is invalid: ").contains("intentIds");
        assertThat(eventCount()).isEqualTo(before);
        // an intentIds that is not an array, and a missing body
        assertThat(json(send("POST", statesPath, ADMIN_KEY, Map.of("name", "x", "intentIds", greet)), 400)
                .get("details")).asInstanceOf(MAP).containsOnlyKeys("intentIds");
        http.post().uri(statesPath).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .exchange().expectStatus().isBadRequest();
        http.post().uri(statesPath).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": ").exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not valid JSON"));
    }

    @Test
    void givenAStateNamedStart_whenCreatingOneNamedSTART_then409() {
        // given
        state("Start");
        // when
        Map<String, Object> problem = json(send("POST", statesPath, ADMIN_KEY, Map.of("name", "START")), 409);
        // then
        assertThat(problem.get("code")).isEqualTo("1004");
        assertThat((String) problem.get("detail")).contains("already has a state named 'Start'", "unique per flow");
        // the same name in another flow is fine
        createState(ADMIN_KEY, (String) newFlow("Another").get("_id"), Map.of("name", "Start"));
    }

    // ---- the one default state

    @Test
    void givenADefaultState_whenAnotherStateBecomesDefault_thenTheOldOneIsDemotedAtomically() {
        // given
        Map<String, Object> first = state("First", "isDefault", true);
        long changes = eventsOfType("DefaultStateChangedEvent");
        // when: a new default state is created, and later an existing one is promoted
        Map<String, Object> second = state("Second", "isDefault", true);
        Map<String, Object> firstNow = json(send("PATCH", path(first), ADMIN_KEY, Map.of()), 200);
        Map<String, Object> third = state("Third");
        Map<String, Object> thirdNow = json(send("PATCH", path(third), ADMIN_KEY, Map.of("isDefault", true)), 200);
        // then: at most one default, always
        assertThat(second.get("isDefault")).isEqualTo(true);
        assertThat(firstNow.get("isDefault")).isEqualTo(false);
        assertThat(thirdNow.get("isDefault")).isEqualTo(true);
        assertThat(json(send("PATCH", path(second), ADMIN_KEY, Map.of()), 200).get("isDefault")).isEqualTo(false);
        assertThat(eventsOfType("DefaultStateChangedEvent")).isEqualTo(changes + 2);
        // and the default may stop being one: the flow then has none
        assertThat(json(send("PATCH", path(third), ADMIN_KEY, Map.of("isDefault", false)), 200).get("isDefault"))
                .isEqualTo(false);
    }

    // ---- update

    @Test
    void givenAState_whenPatched_then200WithTheFullUpdatedRecord() {
        // given
        Map<String, Object> state = state("Patch me", "intentIds", List.of(greet));
        // when
        Map<String, Object> patched = json(send("PATCH", path(state), ADMIN_KEY,
                Map.of("name", "Patched", "type", "whitelist", "intentIds", List.of(order))), 200);
        // then
        Map<String, Object> expected = new HashMap<>(state);
        expected.putAll(Map.of("name", "Patched", "type", "whitelist", "intentIds", List.of(order),
                "lastChanged", patched.get("lastChanged")));
        assertThat(patched).isEqualTo(expected);
        // an empty PATCH answers the current record
        assertThat(json(send("PATCH", path(state), ADMIN_KEY, Map.of()), 200)).isEqualTo(patched);
    }

    @Test
    void givenTwoStates_whenRenamingOneToTheOthersNameOrNamingAForeignIntent_then409Or400() {
        // given
        state("Taken");
        Map<String, Object> state = state("Free");
        String foreign = intentOf((String) newFlow("Elsewhere").get("_id"), "x");
        long before = eventCount();
        // when / then
        json(send("PATCH", path(state), ADMIN_KEY, Map.of("name", "taken")), 409);
        Map<String, Object> problem = json(send("PATCH", path(state), ADMIN_KEY, Map.of("intentIds", List.of(foreign))), 400);
        assertThat((String) problem.get("detail")).contains(foreign);
        assertThat(problem.get("details")).asInstanceOf(MAP).containsOnlyKeys("intentIds");
        Map<String, Object> invalid = new HashMap<>();
        invalid.put("name", null);
        invalid.put("intentIds", null);
        invalid.put("isDefault", 1);
        invalid.put("_id", "x");
        assertThat(json(send("PATCH", path(state), ADMIN_KEY, invalid), 400).get("details")).asInstanceOf(MAP)
                .containsOnlyKeys("name", "intentIds", "isDefault", "_id");
        assertThat(eventCount()).isEqualTo(before);
    }

    // ---- addintent / removeintent

    @Test
    void givenAState_whenAddingAndRemovingIntents_then200WithTheFullStateEachTime() {
        // given
        Map<String, Object> state = state("Intents");
        // when
        Map<String, Object> added = json(send("POST", path(state) + "/addintent", ADMIN_KEY, Map.of("intentId", greet)), 200);
        Map<String, Object> twice = json(send("POST", path(state) + "/addintent", ADMIN_KEY, Map.of("intentId", greet)), 200);
        Map<String, Object> more = json(send("POST", path(state) + "/addintent", ADMIN_KEY, Map.of("intentId", order)), 200);
        Map<String, Object> removed = json(send("POST", path(state) + "/removeintent", ADMIN_KEY, Map.of("intentId", greet)), 200);
        Map<String, Object> notThere = json(send("POST", path(state) + "/removeintent", ADMIN_KEY, Map.of("intentId", greet)), 200);
        // then
        assertThat(added.keySet()).isEqualTo(state.keySet());
        assertThat(added.get("intentIds")).isEqualTo(List.of(greet));
        assertThat(twice).isEqualTo(added);
        assertThat(more.get("intentIds")).isEqualTo(List.of(greet, order));
        assertThat(removed.get("intentIds")).isEqualTo(List.of(order));
        assertThat(notThere).isEqualTo(removed);
        send("POST", path(state) + "/addintent", ADMIN_KEY, Map.of("intentId", greet))
                .expectHeader().exists("X-Event-Position").expectHeader().contentType(MediaType.APPLICATION_JSON);
    }

    @Test
    void givenAState_whenAddingAnUnknownOrForeignIntent_then400NamingIt() {
        // given
        Map<String, Object> state = state("Strict");
        String foreign = intentOf((String) newFlow("Foreign intents").get("_id"), "x");
        // when / then
        for (String intent : List.of(foreign, "eeeeeeeeeeeeeeeeeeeeeeee")) {
            Map<String, Object> problem = json(send("POST", path(state) + "/addintent", ADMIN_KEY,
                    Map.of("intentId", intent)), 400);
            assertThat(problem.get("details")).asInstanceOf(MAP).containsOnlyKeys("intentId");
            assertThat((String) problem.get("detail")).contains(intent, "not an intent of flow " + flowId);
        }
    }

    @ParameterizedTest
    @CsvSource({"addintent", "removeintent"})
    void givenABadIntentBody_whenAddingOrRemoving_then400NamingTheField(String action) {
        // given
        Map<String, Object> state = state("Body " + action);
        // when / then
        assertThat(json(send("POST", path(state) + "/" + action, ADMIN_KEY, Map.of("intentId", "short")), 400)
                .get("details")).asInstanceOf(MAP).containsOnlyKeys("intentId");
        assertThat(json(send("POST", path(state) + "/" + action, ADMIN_KEY, Map.of("intentIds", List.of(greet))), 400)
                .get("details")).asInstanceOf(MAP).containsOnlyKeys("intentId", "intentIds");
        send("POST", path(state) + "/" + action, ADMIN_KEY, null).expectStatus().isBadRequest();
    }

    // ---- delete

    @Test
    void givenAState_whenDeleted_then204ThenItIsGoneAndItsNameIsFree() {
        // given
        Map<String, Object> state = state("Gone");
        // when
        send("DELETE", path(state), ADMIN_KEY, null)
                // then
                .expectStatus().isNoContent().expectHeader().exists("X-Event-Position");
        json(send("DELETE", path(state), ADMIN_KEY, null), 404);
        assertThat((String) json(send("PATCH", path(state), ADMIN_KEY, Map.of()), 404).get("detail"))
                .isEqualTo("State " + state.get("_id") + " does not exist in flow " + flowId + ".");
        state("gone");
    }

    // ---- every route: unknown, foreign and malformed ids; the flow's deletion

    private static final String[][] ROUTES = {
            {"POST", ""}, {"PATCH", "/{state}"}, {"DELETE", "/{state}"}, {"POST", "/{state}/addintent"},
            {"POST", "/{state}/removeintent"}};

    private Map<String, Object> bodyFor(String method, String suffix) {
        if (method.equals("DELETE")) {
            return null;
        }
        return suffix.isEmpty() ? Map.of("name", "Probe") : suffix.endsWith("intent") ? Map.of("intentId", greet) : Map.of();
    }

    @Test
    void givenAStateOfAnotherFlowOrAnUnknownOne_whenAddressedThroughThisFlow_then404() {
        // given
        String otherFlow = (String) newFlow("Other states").get("_id");
        Map<String, Object> elsewhere = createState(ADMIN_KEY, otherFlow, Map.of("name", "Elsewhere"));
        // when / then
        for (String[] route : ROUTES) {
            if (route[1].isEmpty()) {
                continue;
            }
            for (String stateId : List.of((String) elsewhere.get("_id"), "cccccccccccccccccccccccc")) {
                json(send(route[0], statesPath + route[1].replace("{state}", stateId), ADMIN_KEY,
                        bodyFor(route[0], route[1])), 404);
            }
        }
    }

    @Test
    void givenAnUnknownOrForeignOrDeletedFlow_whenAnyStateRouteIsCalled_then404() {
        // given
        Map<String, Object> state = state("Tenancy");
        String otherKey = otherOrganisationKey("state-thief@example.com");
        Map<String, Object> doomed = newFlow("Doomed");
        Map<String, Object> doomedState = createState(ADMIN_KEY, (String) doomed.get("_id"), Map.of("name", "D"));
        send("DELETE", "/v2.0/flows/" + doomed.get("_id"), ADMIN_KEY, null).expectStatus().isNoContent();
        Map<String, Object> orphan = newFlow("Orphaned");
        Map<String, Object> orphanState = createState(ADMIN_KEY, (String) orphan.get("_id"), Map.of("name", "O"));
        send("DELETE", "/v2.0/projects/" + orphan.get("projectReference"), ADMIN_KEY, null).expectStatus().isNoContent();
        long before = eventCount();
        // when / then
        for (String[] route : ROUTES) {
            String suffix = route[1];
            Object body = bodyFor(route[0], suffix);
            json(send(route[0], "/v2.0/flows/aaaaaaaaaaaaaaaaaaaaaaaa/states" + suffix.replace("{state}",
                    (String) state.get("_id")), ADMIN_KEY, body), 404);
            assertThat(json(send(route[0], statesPath + suffix.replace("{state}", (String) state.get("_id")), otherKey,
                    body), 404).get("detail")).isEqualTo("Flow " + flowId + " does not exist.");
            json(send(route[0], "/v2.0/flows/" + doomed.get("_id") + "/states" + suffix.replace("{state}",
                    (String) doomedState.get("_id")), ADMIN_KEY, body), 404);
            json(send(route[0], "/v2.0/flows/" + orphan.get("_id") + "/states" + suffix.replace("{state}",
                    (String) orphanState.get("_id")), ADMIN_KEY, body), 404);
        }
        assertThat(eventCount()).isEqualTo(before);
        // still there, unchanged, for its owner
        assertThat(json(send("PATCH", path(state), ADMIN_KEY, Map.of()), 200)).isEqualTo(state);
    }

    @Test
    void givenMalformedIds_whenAnyStateRouteIsCalled_then400NamingThePathParameter() {
        // given
        Map<String, Object> state = state("Ids");
        // when / then
        for (String[] route : ROUTES) {
            String suffix = route[1];
            Object body = bodyFor(route[0], suffix);
            assertThat(json(send(route[0], "/v2.0/flows/BAD/states" + suffix.replace("{state}",
                    (String) state.get("_id")), ADMIN_KEY, body), 400).get("details")).asInstanceOf(MAP)
                    .containsOnlyKeys("flowId");
            if (!suffix.isEmpty()) {
                assertThat(json(send(route[0], statesPath + suffix.replace("{state}", "x".repeat(25)), ADMIN_KEY, body),
                        400).get("details")).asInstanceOf(MAP).containsOnlyKeys("stateId");
            }
        }
    }

    // ---- deprecation

    @Test
    void everyStateRouteAnswersWithTheDeprecationHeadersEvenOnErrors() {
        // given
        Map<String, Object> state = state("Deprecated");
        // when / then: successes, 400s, 404s and 401s alike
        List<WebTestClient.ResponseSpec> answers = List.of(
                send("POST", statesPath, ADMIN_KEY, Map.of("name", "Another")),
                send("PATCH", path(state), ADMIN_KEY, Map.of()),
                send("POST", path(state) + "/addintent", ADMIN_KEY, Map.of("intentId", greet)),
                send("POST", path(state) + "/removeintent", ADMIN_KEY, Map.of("intentId", greet)),
                send("POST", path(state) + "/addintent", ADMIN_KEY, Map.of()),
                send("PATCH", statesPath + "/cccccccccccccccccccccccc", ADMIN_KEY, Map.of()),
                send("DELETE", path(state), ADMIN_KEY, null),
                http.post().uri(statesPath).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "x")).exchange());
        for (WebTestClient.ResponseSpec answer : answers) {
            answer.expectHeader().valueEquals("Deprecation", "@1782864000")
                    .expectHeader().valueEquals("Sunset", "Thu, 01 Jul 2027 00:00:00 GMT")
                    .expectHeader().valueEquals("Link",
                            "<https://docs.example.com/migrations/states-to-intent-conditions>; rel=\"deprecation\"; type=\"text/html\"");
        }
        // the sunset comes after the deprecation, as RFC 9745 asks
        assertThat(java.time.ZonedDateTime.parse("Thu, 01 Jul 2027 00:00:00 GMT",
                java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond()).isGreaterThan(1782864000L);
        // and the flow routes carry none of them
        send("PATCH", "/v2.0/flows/" + flowId, ADMIN_KEY, Map.of()).expectStatus().isOk()
                .expectHeader().doesNotExist("Deprecation").expectHeader().doesNotExist("Sunset")
                .expectHeader().doesNotExist("Link");
        send("POST", "/v2.0/flows/" + flowId + "/statesx", ADMIN_KEY, Map.of()).expectHeader().doesNotExist("Deprecation");
    }
}
