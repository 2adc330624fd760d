package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** The official client's cloneFlow over real HTTP: POST /v2.0/flows/{flowId}/clone. */
class CloneFlowApiTest extends FlowApiSupport {

    @Test
    void givenAFlowWithIntentsSentencesAndAState_whenCloned_then201WithTheCopyHoldingCopiesOfAllOfThemUnderNewIds() {
        // given: a parent intent listing its child in childFeatures, a sentence of the child, a default state naming it
        Map<String, Object> flow = newFlow("Original " + UUID.randomUUID());
        String flowId = (String) flow.get("_id");
        String localeId = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?", String.class,
                flow.get("projectReference"));
        String intents = "/v2.0/flows/" + flowId + "/intents";
        String parent = (String) json(send("POST", intents, ADMIN_KEY, Map.of("name", "parent", "tags", List.of("t"))),
                201).get("_id");
        String child = (String) json(send("POST", intents, ADMIN_KEY, Map.of("name", "child", "parentIntentId", parent)),
                201).get("_id");
        json(send("PATCH", intents + "/" + parent, ADMIN_KEY, Map.of("childFeatures", List.of(child))), 200);
        json(send("POST", intents + "/" + child + "/sentences", ADMIN_KEY, Map.of("text", "hello", "localeId", localeId)),
                201);
        createState(ADMIN_KEY, flowId, Map.of("name", "Main", "isDefault", true, "intentIds", List.of(child)));
        long last = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);

        // when
        var result = send("POST", "/v2.0/flows/" + flowId + "/clone", ADMIN_KEY, null)
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().exists("X-Event-Position")
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = result.getResponseBody();
        String copyId = (String) copy.get("_id");
        assertThat(copyId).isNotEqualTo(flowId);
        assertThat(copy).containsEntry("name", flow.get("name") + " (copy)")
                .containsEntry("projectReference", flow.get("projectReference"));
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/flows/" + copyId);

        List<Map<String, Object>> copied = jdbc.queryForList("SELECT intent_id, name, parent_intent_id FROM "
                + "cmd_intent_lookup WHERE flow_id = ? ORDER BY name", copyId);
        assertThat(copied).extracting(row -> row.get("name")).containsExactly("child", "parent");
        String newChild = (String) copied.get(0).get("intent_id");
        String newParent = (String) copied.get(1).get("intent_id");
        assertThat(List.of(newChild, newParent)).doesNotContain(child, parent);
        assertThat(copied.get(0).get("parent_intent_id")).isEqualTo(newParent);
        String newEvents = "SELECT convert_from(payload, 'UTF8')::jsonb FROM domain_event_entry WHERE global_index > ? "
                + "AND payload_type = ?";
        assertThat(jdbc.queryForList(newEvents, String.class, last, "ai.convo.contract.intent.SentenceCreatedEvent"))
                .singleElement().satisfies(e -> assertThat(e).contains("\"text\": \"hello\"", newChild, localeId));
        assertThat(jdbc.queryForList(newEvents, String.class, last, "ai.convo.contract.state.StateCreatedEvent"))
                .singleElement().satisfies(e -> assertThat(e).contains("\"isDefault\": true", newChild, copyId));
        assertThat(jdbc.queryForList(newEvents, String.class, last, "ai.convo.contract.intent.IntentUpdatedEvent"))
                .singleElement().satisfies(e -> assertThat(e).contains(newParent, "\"childFeatures\"", newChild));
        // the original is untouched, and the whole copy is one request: one trace
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_lookup WHERE flow_id = ?", Long.class, flowId))
                .isEqualTo(2);
        assertThat(jdbc.queryForList("SELECT DISTINCT convert_from(meta_data, 'UTF8')::jsonb ->> 'traceId' "
                + "FROM domain_event_entry WHERE global_index > ?", String.class, last)).hasSize(1);
    }

    @Test
    void givenAFlowOfAnotherOrganisationOrNone_whenCloned_then404AndNothingIsStored() {
        // given
        String flowId = (String) newFlow("Private " + UUID.randomUUID()).get("_id");
        String stranger = otherOrganisationKey("cloner-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        send("POST", "/v2.0/flows/" + flowId + "/clone", stranger, null).expectStatus().isNotFound();
        send("POST", "/v2.0/flows/" + ai.convo.contract.common.Ids.newId() + "/clone", ADMIN_KEY, null)
                .expectStatus().isNotFound();
        send("POST", "/v2.0/flows/not-an-id/clone", ADMIN_KEY, null).expectStatus().isBadRequest();
        send("POST", "/v2.0/flows/" + flowId + "/clone", ADMIN_KEY, Map.of("name", "x")).expectStatus().isBadRequest();
        assertThat(eventCount()).isEqualTo(before);
    }
}
