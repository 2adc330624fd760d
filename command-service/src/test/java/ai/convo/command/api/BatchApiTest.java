package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official client's batchIntentSentences and batchFlowStates over real HTTP: PATCH .../intents/{id}/sentences and
 * PATCH .../flows/{id}/states with {operations}, all or nothing, answered with {created, updated, deleted}.
 */
class BatchApiTest extends FlowApiSupport {

    private String flowId;
    private String localeId;
    private String intentId;

    @BeforeEach
    void flowWithAnIntent() {
        Map<String, Object> flow = newFlow("Batch " + UUID.randomUUID());
        flowId = (String) flow.get("_id");
        localeId = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?", String.class,
                flow.get("projectReference"));
        intentId = (String) json(send("POST", "/v2.0/flows/" + flowId + "/intents", ADMIN_KEY, Map.of("name", "greet")),
                201).get("_id");
    }

    private String sentences() {
        return "/v2.0/flows/" + flowId + "/intents/" + intentId + "/sentences";
    }

    private long sentenceEvents() {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?", Long.class,
                intentId);
    }

    @Test
    void givenAnIntent_whenABatchCreatesUpdatesAndDeletesSentences_then200WithTheIdsOfEachInOrder() {
        // given
        @SuppressWarnings("unchecked")
        List<String> first = (List<String>) json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("text", "hi", "localeReference", localeId)),
                Map.of("op", "create", "value", Map.of("text", "hello", "localeId", localeId, "slots", List.of()))))),
                200).get("created");
        assertThat(first).hasSize(2).allMatch(Ids::isValid);
        // when
        Map<String, Object> answer = json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "update", "id", first.get(0), "value", Map.of("text", "hey", "localeReference", localeId)),
                Map.of("op", "delete", "id", first.get(1)),
                Map.of("op", "create", "value", Map.of("text", "yo", "localeReference", localeId))))), 200);
        // then
        assertThat(answer.keySet()).containsExactly("created", "updated", "deleted");
        assertThat(answer.get("updated")).isEqualTo(List.of(first.get(0)));
        assertThat(answer.get("deleted")).isEqualTo(List.of(first.get(1)));
        assertThat((List<?>) answer.get("created")).hasSize(1);
    }

    @Test
    void givenABatchWhoseLastOperationFails_whenSent_thenTheFailureNamesItAndNoOperationIsStored() {
        // given
        long before = sentenceEvents();
        // when
        Map<String, Object> problem = json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("text", "fine", "localeReference", localeId)),
                Map.of("op", "delete", "id", Ids.newId())))), 404);
        // then
        assertThat((String) problem.get("detail")).startsWith("operations[1] (delete): ")
                .contains("No operation of the batch was applied");
        assertThat((Map<String, Object>) problem.get("details")).containsEntry("operation", 1);
        assertThat(sentenceEvents()).isEqualTo(before);
    }

    @Test
    void givenABatchThatFailedAfterItsFirstChange_whenTheNextChangeIsDecided_thenOnTheStoredStateWithNoGapInTheLog() {
        // given: a batch whose first operation changed the intent before its second failed, so all of it rolled back
        json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("text", "phantom", "localeReference", localeId)),
                Map.of("op", "delete", "id", Ids.newId())))), 404);
        long before = sentenceEvents();
        // when: the next change of the intent, which appends
        json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("text", "real", "localeReference", localeId))))), 200);
        // then: it was decided on what the store holds; a cached intent still holding the rolled-back sentence would
        // append past a sequence number the store never got
        assertThat(sentenceEvents()).isEqualTo(before + 1);
        assertThat(jdbc.queryForObject("SELECT max(sequence_number) + 1 FROM domain_event_entry "
                + "WHERE aggregate_identifier = ?", Long.class, intentId)).isEqualTo(before + 1);
    }

    @Test
    void givenAMalformedBatch_whenSent_then400NamingEveryPathAndNothingIsStored() {
        // given
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "upsert"),
                Map.of("op", "update", "value", Map.of("text", "x")),
                Map.of("op", "create", "value", Map.of("text", "", "slots", List.of(Map.of("type", "x")))),
                Map.of("op", "delete", "id", Ids.newId(), "value", Map.of())), "extra", true)), 400);
        // then
        assertThat((Map<String, Object>) problem.get("details")).containsOnlyKeys("extra", "operations[0].op",
                "operations[1].id", "operations[2].value.text", "operations[2].value.localeReference",
                "operations[2].value.slots", "operations[3].value");
        assertThat(json(send("PATCH", sentences(), ADMIN_KEY, Map.of("operations", List.of())), 400).get("details"))
                .isEqualTo(Map.of("operations", "is required: a list of 1 to 100 operations, each {op: create, value} "
                        + "or {op: update, id, value} or {op: delete, id}"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnIntentOfAnotherOrganisation_whenABatchIsSent_then404AndNothingIsStored() {
        // given
        String stranger = otherOrganisationKey("batch-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        send("PATCH", sentences(), stranger, Map.of("operations", List.of(Map.of("op", "create", "value",
                Map.of("text", "mine", "localeReference", localeId))))).expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAFlow_whenABatchCreatesStatesAndRenamesOne_thenAllOfThemWithTheirIds() {
        // given
        String states = "/v2.0/flows/" + flowId + "/states";
        String quiet = (String) createState(ADMIN_KEY, flowId, Map.of("name", "Quiet")).get("_id");
        // when
        Map<String, Object> answer = json(send("PATCH", states, ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "Busy", "isDefault", true, "intentIds", List.of(intentId))),
                Map.of("op", "update", "id", quiet, "value", Map.of("name", "Silent", "_id", quiet)),
                Map.of("op", "create", "value", Map.of("name", "Other"))))), 200);
        // then
        assertThat((List<?>) answer.get("created")).hasSize(2);
        assertThat(answer.get("updated")).isEqualTo(List.of(quiet));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%StateCreatedEvent'", Long.class, flowId)).isEqualTo(3);
    }

    @Test
    void givenAStateBatchWithABadValue_whenSent_then400NamingItsPathAndNothingIsStored() {
        // given
        String states = "/v2.0/flows/" + flowId + "/states";
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("PATCH", states, ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "Fine")),
                Map.of("op", "create", "value", Map.of("name", "Odd", "type", "greylist", "intentIds", List.of("x"))),
                Map.of("op", "create", "value", Map.of("name", "fine"))))), 400);
        // then
        assertThat((Map<String, Object>) problem.get("details")).containsOnlyKeys("operations[1].value.type",
                "operations[1].value.intentIds");
        // and a name the batch itself takes twice is a conflict of the operation that takes it again
        Map<String, Object> conflict = json(send("PATCH", states, ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "Fine")),
                Map.of("op", "create", "value", Map.of("name", "fine"))))), 409);
        assertThat((String) conflict.get("detail")).startsWith("operations[1] (create): ");
        assertThat(eventCount()).isEqualTo(before);
    }

    // ---- batchIntents and batchFlows: several aggregates, one transaction

    private String intents() {
        return "/v2.0/flows/" + flowId + "/intents";
    }

    @Test
    void givenAnIntent_whenABatchRenamesItAndCreatesOneWithItsOldName_thenTheLaterOperationSeesTheEarlierOne() {
        // given: "greet" exists (@BeforeEach)
        // when
        Map<String, Object> answer = json(send("PATCH", intents(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "update", "id", intentId, "value", Map.of("name", "welcome", "referenceId", "ignored")),
                Map.of("op", "create", "value", Map.of("name", "greet", "tags", List.of("new")))))), 200);
        // then
        assertThat(answer.get("updated")).isEqualTo(List.of(intentId));
        @SuppressWarnings("unchecked")
        List<String> created = (List<String>) answer.get("created");
        assertThat(created).hasSize(1);
        assertThat(jdbc.queryForList("SELECT name FROM cmd_intent_lookup WHERE flow_id = ? ORDER BY name", String.class,
                flowId)).containsExactly("greet", "welcome");
    }

    @Test
    void givenABatchOfIntentsWhoseLastOperationFails_whenSent_thenNothingOfItIsStored() {
        // given
        long before = eventCount();
        // when: two creates, then one taking a name the first took
        Map<String, Object> problem = json(send("PATCH", intents(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "order")),
                Map.of("op", "create", "value", Map.of("name", "cancel")),
                Map.of("op", "create", "value", Map.of("name", "ORDER"))))), 409);
        // then
        assertThat((String) problem.get("detail")).contains("order");
        assertThat(eventCount()).isEqualTo(before);
        assertThat(jdbc.queryForList("SELECT name FROM cmd_intent_lookup WHERE flow_id = ?", String.class, flowId))
                .containsExactly("greet");
    }

    @Test
    void givenAParentWithAChild_whenABatchDeletesTheParent_thenTheChildBecomesARootAndTheIdsAreAnswered() {
        // given
        String child = (String) json(send("POST", intents(), ADMIN_KEY, Map.of("name", "child", "parentIntentId",
                intentId)), 201).get("_id");
        // when
        Map<String, Object> answer = json(send("PATCH", intents(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "delete", "id", intentId)))), 200);
        // then
        assertThat(answer).isEqualTo(Map.of("created", List.of(), "updated", List.of(), "deleted", List.of(intentId)));
        assertThat(jdbc.queryForObject("SELECT parent_intent_id FROM cmd_intent_lookup WHERE intent_id = ?", String.class,
                child)).isNull();
    }

    @Test
    void givenAMalformedIntentBatch_whenSent_then400NamingEveryPath() {
        // given
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("PATCH", intents(), ADMIN_KEY, Map.of("operations", List.of(
                Map.of("op", "create", "value", Map.of("name", "", "isDisabled", "no")),
                Map.of("op", "update", "id", intentId, "value", Map.of("analyticsLabel", "x")),
                Map.of("op", "create", "value", Map.of("name", "x", "localeId", localeId))))), 400);
        // then
        assertThat((Map<String, Object>) problem.get("details")).containsOnlyKeys("operations[0].value.name",
                "operations[0].value.isDisabled", "operations[1].value.analyticsLabel", "operations[2].value.localeId");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAProject_whenABatchCreatesUpdatesAndDeletesFlows_thenAllOfThemInOneAnswer() {
        // given
        String projectId = jdbc.queryForObject("SELECT project_id FROM cmd_flow_lookup WHERE flow_id = ?", String.class,
                flowId);
        String second = (String) createFlow(ADMIN_KEY, projectId, "Second").get("_id");
        long last = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        // when
        Map<String, Object> answer = json(send("PATCH", "/v2.0/flows?projectId=" + projectId, ADMIN_KEY,
                Map.of("operations", List.of(
                        Map.of("op", "create", "value", Map.of("name", "Third", "description", "new")),
                        Map.of("op", "update", "id", flowId, "value", Map.of("name", "Renamed", "_id", flowId)),
                        Map.of("op", "delete", "id", second)))), 200);
        // then
        assertThat((List<?>) answer.get("created")).hasSize(1);
        assertThat(answer.get("updated")).isEqualTo(List.of(flowId));
        assertThat(answer.get("deleted")).isEqualTo(List.of(second));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_flow_lookup WHERE project_id = ?", Long.class,
                projectId)).isEqualTo(2);
        // one request, one trace: the audit trail shows the batch as one event
        assertThat(jdbc.queryForList("SELECT DISTINCT convert_from(meta_data, 'UTF8')::jsonb ->> 'traceId' "
                + "FROM domain_event_entry WHERE global_index > ?", String.class, last)).hasSize(1);
    }

    @Test
    void givenAFlowOfAnotherProject_whenABatchOfThisProjectNamesIt_then404AndNothingIsStored() {
        // given
        String projectId = jdbc.queryForObject("SELECT project_id FROM cmd_flow_lookup WHERE flow_id = ?", String.class,
                flowId);
        String elsewhere = (String) newFlow("Elsewhere " + UUID.randomUUID()).get("_id");
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("PATCH", "/v2.0/flows?projectId=" + projectId, ADMIN_KEY,
                Map.of("operations", List.of(
                        Map.of("op", "create", "value", Map.of("name", "Fine")),
                        Map.of("op", "delete", "id", elsewhere)))), 404);
        // then
        // the words of a flow that does not exist: the flow's own project is not named
        assertThat((String) problem.get("detail")).isEqualTo("operations[1] (delete): Flow " + elsewhere
                + " does not exist. No operation of the batch was applied.");
        assertThat(eventCount()).isEqualTo(before);
        send("PATCH", "/v2.0/flows", ADMIN_KEY, Map.of("operations", List.of(Map.of("op", "delete", "id", flowId))))
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
    }

    @Test
    void givenALearningSentenceId_whenDeleted_then404SayingThereAreNoneAndNothingIsStored() {
        // given
        long before = eventCount();
        // when / then
        send("DELETE", "/v2.0/flows/" + flowId + "/intents/learningsentences/" + Ids.newId(), ADMIN_KEY, null)
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("Learning sentence",
                        "no conversations"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenSentenceGeneration_whenCalled_then501SayingThereIsNoTextGeneratorAndNothingIsStored() {
        // given
        long before = eventCount();
        // when / then (training is a task now: TrainingApiTest)
        send("POST", sentences() + "/generate?localeId=" + localeId + "&limit=5", ADMIN_KEY, null).expectStatus()
                .isEqualTo(501).expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("text generator"));
        send("POST", "/v2.0/flows/not-an-id/intents/train", ADMIN_KEY, null).expectStatus().isBadRequest();
        assertThat(eventCount()).isEqualTo(before);
    }
}
