package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The slot filler writes over real HTTP: POST and PATCH (batch) /v2.0/flows/{flowId}/slotfillers, PATCH and DELETE
 * .../slotfillers/{slotFillerId}: the client's shapes, the type rules, problems naming every bad field with nothing
 * stored, and a slot filler of another flow or organisation answering exactly as a missing one.
 */
class SlotFillerApiTest extends FlowApiSupport {

    private String projectId;
    private String flowId;

    @BeforeEach
    void flow() {
        projectId = (String) createProject(ADMIN_KEY, "Slot fillers " + UUID.randomUUID(), "en-US").get("_id");
        flowId = (String) createFlow(ADMIN_KEY, projectId, "Main").get("_id");
    }

    private String fillers() {
        return "/v2.0/flows/" + flowId + "/slotfillers";
    }

    private Map<String, Object> created(Map<String, Object> body) {
        return json(send("POST", fillers(), ADMIN_KEY, body), 201);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> problem) {
        return (Map<String, Object>) problem.get("details");
    }

    // ---- create

    @Test
    void givenAFlow_whenARegexSlotFillerIsPosted_then201WithTheClientsFullObject() {
        // given: a flow; when
        var result = send("POST", fillers(), ADMIN_KEY, Map.of("name", "Zip", "type", "regex", "regex", "^[0-9]{5}$",
                "contextKey", "zip"))
                // then
                .expectStatus().isCreated()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = result.getResponseBody();
        assertThat(body.keySet()).containsExactly("_id", "referenceId", "name", "type", "regex", "usePositiveOnly",
                "removeNegated", "storeResultInContext", "contextKey", "storeInContactProfile", "profileKey",
                "storeDetailedResults", "skipIfResultInContext", "additionalValidation", "resultLocation",
                "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(body).containsEntry("regex", "^[0-9]{5}$").containsEntry("contextKey", "zip")
                .containsEntry("storeResultInContext", true).containsEntry("usePositiveOnly", false)
                .containsEntry("createdBy", adminUserId());
        assertThat((String) body.get("_id")).matches("^[a-z0-9]{24}$");
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new" + fillers() + "/" + body.get("_id"));
        assertThat(eventsOfType("ai.convo.contract.slotfiller.SlotFillerCreatedEvent")).isPositive();
    }

    @Test
    void givenTypeSlot_whenPostedWithItsSlot_thenTheSlotIsShownAndNoRegex() {
        Map<String, Object> body = created(Map.of("name", "City", "type", "slot", "slot", "DE-CITY"));
        assertThat(body).containsEntry("slot", "DE-CITY").doesNotContainKey("regex");
    }

    @Test
    void givenEveryTypeRuleBroken_whenPosted_then400NamingEachAndNothingIsStored() {
        // given
        long before = eventCount();
        // when / then: a regex filler with a broken pattern
        Map<String, Object> badPattern = json(send("POST", fillers(), ADMIN_KEY,
                Map.of("name", "Zip", "type", "regex", "regex", "([0-9]")), 400);
        assertThat(details(badPattern)).containsOnlyKeys("regex");
        assertThat((String) details(badPattern).get("regex")).contains("not a valid regular expression");
        // a regex filler without a pattern, a slot filler without a slot
        assertThat(details(json(send("POST", fillers(), ADMIN_KEY, Map.of("name", "Zip", "type", "regex")), 400)))
                .containsOnlyKeys("regex");
        assertThat(details(json(send("POST", fillers(), ADMIN_KEY, Map.of("name", "City", "type", "slot")), 400)))
                .containsOnlyKeys("slot");
        // a pattern or a slot on a type that takes neither
        assertThat(details(json(send("POST", fillers(), ADMIN_KEY,
                Map.of("name", "N", "type", "number", "regex", "a", "slot", "b")), 400))).containsOnlyKeys("regex", "slot");
        // an unknown type, listing the ones there are; every bad field at once
        Map<String, Object> body = new HashMap<>();
        body.put("name", "");
        body.put("type", "colour");
        body.put("usePositiveOnly", "yes");
        body.put("contextKey", 5);
        body.put("colour", "red");
        Map<String, Object> many = json(send("POST", fillers(), ADMIN_KEY, body), 400);
        assertThat(details(many)).containsOnlyKeys("name", "type", "usePositiveOnly", "contextKey", "colour");
        assertThat((String) details(many).get("type")).contains("age", "regex", "temperature");
        // then
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenBadPathsOrBodies_whenPosted_thenProblemsNotServerErrors() {
        json(send("POST", "/v2.0/flows/nope/slotfillers", ADMIN_KEY, Map.of("name", "N", "type", "age")), 400);
        json(send("POST", "/v2.0/flows/" + Ids.newId() + "/slotfillers", ADMIN_KEY,
                Map.of("name", "N", "type", "age")), 404);
        http.post().uri(fillers()).header("X-API-Key", ADMIN_KEY).header("Content-Type", "application/json")
                .bodyValue("{not json").exchange().expectStatus().isBadRequest();
        http.post().uri(fillers()).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isBadRequest();
        http.post().uri(fillers()).exchange().expectStatus().isUnauthorized();
    }

    // ---- update and delete

    @Test
    void givenARegexFiller_whenPatched_then200WithTheRecordAndTypeRulesAgainstTheStoredOne() {
        // given
        String id = (String) created(Map.of("name", "Zip", "type", "regex", "regex", "^[0-9]{5}$")).get("_id");
        String path = fillers() + "/" + id;
        // when: renamed and flagged
        Map<String, Object> renamed = json(send("PATCH", path, ADMIN_KEY,
                Map.of("name", "Postcode", "removeNegated", true)), 200);
        // then
        assertThat(renamed).containsEntry("name", "Postcode").containsEntry("removeNegated", true)
                .containsEntry("regex", "^[0-9]{5}$");
        // a broken pattern, and a slot on a regex filler, are refused with nothing stored
        long before = eventCount();
        assertThat(details(json(send("PATCH", path, ADMIN_KEY, Map.of("regex", "[a-")), 400))).containsOnlyKeys("regex");
        assertThat(details(json(send("PATCH", path, ADMIN_KEY, Map.of("slot", "x")), 400))).containsOnlyKeys("slot");
        assertThat(details(json(send("PATCH", path, ADMIN_KEY, Map.of("type", "weather")), 400)))
                .containsOnlyKeys("type");
        assertThat(eventCount()).isEqualTo(before);
        // to number: the pattern goes; back to regex without one: refused
        assertThat(json(send("PATCH", path, ADMIN_KEY, Map.of("type", "number")), 200)).doesNotContainKey("regex")
                .containsEntry("type", "number");
        assertThat(details(json(send("PATCH", path, ADMIN_KEY, Map.of("type", "regex")), 400))).containsOnlyKeys("regex");
    }

    @Test
    void givenAFiller_whenDeletedTwice_then204Then404() {
        String id = (String) created(Map.of("name", "Age", "type", "age")).get("_id");
        send("DELETE", fillers() + "/" + id, ADMIN_KEY, null).expectStatus().isNoContent()
                .expectHeader().exists("X-Event-Position");
        Map<String, Object> gone = json(send("DELETE", fillers() + "/" + id, ADMIN_KEY, null), 404);
        assertThat((String) gone.get("detail")).isEqualTo("Slot filler " + id + " does not exist.");
    }

    @Test
    void givenAFiller_whenAddressedUnderAnotherFlowOrByAnotherOrganisation_then404AsForAMissingOne() {
        // given
        String id = (String) created(Map.of("name", "Age", "type", "age")).get("_id");
        String otherFlow = (String) createFlow(ADMIN_KEY, projectId, "Other").get("_id");
        String strangerKey = otherOrganisationKey("slots-" + UUID.randomUUID() + "@example.com");
        String missing = Ids.newId();
        long before = eventCount();
        // when / then
        String underOther = (String) json(send("PATCH", "/v2.0/flows/" + otherFlow + "/slotfillers/" + id, ADMIN_KEY,
                Map.of("name", "X")), 404).get("detail");
        String byStranger = (String) json(send("PATCH", fillers() + "/" + id, strangerKey, Map.of("name", "X")), 404)
                .get("detail");
        String deleteByStranger = (String) json(send("DELETE", fillers() + "/" + id, strangerKey, null), 404)
                .get("detail");
        String reallyMissing = (String) json(send("PATCH", fillers() + "/" + missing, ADMIN_KEY, Map.of("name", "X")),
                404).get("detail");
        assertThat(underOther).isEqualTo("Slot filler " + id + " does not exist.");
        assertThat(byStranger).isEqualTo(underOther).isEqualTo(deleteByStranger);
        assertThat(reallyMissing).isEqualTo("Slot filler " + missing + " does not exist.");
        // the stranger cannot create in the flow either: the flow is missing to them
        assertThat((String) json(send("POST", fillers(), strangerKey, Map.of("name", "N", "type", "age")), 404)
                .get("detail")).isEqualTo("Flow " + flowId + " does not exist.");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAFlowWithFillers_whenTheFlowIsDeleted_thenItsFillersAreGoneForWrites() {
        String id = (String) created(Map.of("name", "Age", "type", "age")).get("_id");
        send("DELETE", "/v2.0/flows/" + flowId, ADMIN_KEY, null).expectStatus().isNoContent();
        json(send("PATCH", fillers() + "/" + id, ADMIN_KEY, Map.of("name", "X")), 404);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_slot_filler_lookup WHERE flow_id = ?", Long.class,
                flowId)).isZero();
    }

    // ---- batch

    @Test
    @SuppressWarnings("unchecked")
    void givenFillers_whenABatchCreatesUpdatesAndDeletes_thenAllAreStoredAndNamed() {
        // given
        String kept = (String) created(Map.of("name", "Age", "type", "age")).get("_id");
        Map<String, Object> read = created(Map.of("name", "Gone", "type", "email"));
        String gone = (String) read.get("_id");
        // when: a create, an update sent back as read (its meta is skipped), a delete
        Map<String, Object> sentBack = new HashMap<>(read);
        sentBack.put("name", "Mail");
        Map<String, Object> result = json(send("PATCH", fillers(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "Temp", "type", "temperature")),
                Map.of("op", "update", "id", gone, "value", sentBack),
                Map.of("op", "delete", "id", kept)))), 200);
        // then
        assertThat((List<String>) result.get("created")).hasSize(1);
        assertThat(result).containsEntry("updated", List.of(gone)).containsEntry("deleted", List.of(kept));
        assertThat(json(send("PATCH", fillers() + "/" + gone, ADMIN_KEY, Map.of()), 200)).containsEntry("name", "Mail");
        json(send("DELETE", fillers() + "/" + kept, ADMIN_KEY, null), 404);
    }

    @Test
    void givenABatchWithOneBadOperation_whenSent_then400NamingItAndNothingIsStored() {
        // given
        String id = (String) created(Map.of("name", "Age", "type", "age")).get("_id");
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("PATCH", fillers(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "Fine", "type", "number")),
                Map.of("op", "create", "value", Map.of("name", "Zip", "type", "regex", "regex", "(")),
                Map.of("op", "delete", "id", id)))), 400);
        // then
        assertThat(details(problem)).containsOnlyKeys("operations[1].value.regex");
        assertThat(eventCount()).isEqualTo(before);
        // an operation on a missing slot filler refuses the whole batch, naming it
        Map<String, Object> missing = json(send("PATCH", fillers(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "Fine", "type", "number")),
                Map.of("op", "delete", "id", Ids.newId())))), 404);
        assertThat((String) missing.get("detail")).contains("operations[1]");
        assertThat(eventCount()).isEqualTo(before);
    }
}
