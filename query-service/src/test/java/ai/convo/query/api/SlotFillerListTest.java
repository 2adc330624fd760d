package ai.convo.query.api;

import static ai.convo.query.api.ListPages.items;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official client's indexSlotFillers and readSlotFiller (GET /v2.0/flows/{flowId}/slotfillers[/{id}]): the
 * index items, the list mechanics, the full object, history, asOf and the audit trail, a flow's deletion, tenancy.
 */
class SlotFillerListTest extends QueryTestBase {

    private Caller caller;
    private String projectId;
    private String flowId;
    private final String[] ids = new String[5];
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        projectId = project(caller, "Slots", 1000).id();
        flowId = Ids.newId();
        append(flowId, new FlowCreatedEvent(flowId, projectId, caller.organisationId(), UUID.randomUUID().toString(),
                "Main", "", caller.userId(), 1000));
        // names that sort otherwise than their creation; one regex and one slot filler
        String[] names = {"echo", "alpha", "delta", "bravo", "charlie"};
        String[] types = {"regex", "age", "slot", "email", "number"};
        for (int i = 0; i < names.length; i++) {
            ids[i] = Ids.newId();
            position = append(ids[i], created(ids[i], flowId, names[i], types[i], 1000 + i));
        }
    }

    private SlotFillerCreatedEvent created(String id, String flow, String name, String type, long at) {
        return new SlotFillerCreatedEvent(id, flow, projectId, caller.organisationId(), UUID.randomUUID().toString(),
                name, type, type.equals("regex") ? "^[0-9]{5}$" : null, type.equals("slot") ? "DE-CITY" : null, false,
                false, true, name + "Key", false, "", false, true, "", "", caller.userId(), at);
    }

    private String fillers() {
        return "/v2.0/flows/" + flowId + "/slotfillers";
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(Caller who, String uri) {
        return http.get().uri(uri).header("X-API-Key", who.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
    }

    private static List<Object> names(Map<String, Object> page) {
        return items(page).stream().map(item -> item.get("name")).toList();
    }

    @Test
    void givenFillers_whenListed_thenTheClientsIndexItemsWithTheListMechanics() {
        // given: five slot fillers (seed)
        // when
        Map<String, Object> all = get(caller, fillers());
        Map<String, Object> byName = get(caller, fillers() + "?sort=name:asc&limit=2");
        Map<String, Object> next = get(caller, fillers() + "?sort=name:asc&limit=2&next=" + byName.get("nextCursor"));
        Map<String, Object> filtered = get(caller, fillers() + "?filter=RAV");
        Map<String, Object> byType = get(caller, fillers() + "?sort=type:desc&limit=1");
        // then
        assertThat(all.get("total")).isEqualTo(5);
        assertThat(names(all)).containsExactly("echo", "alpha", "delta", "bravo", "charlie");
        assertThat(items(all).get(0).keySet()).containsExactly("_id", "name", "type", "referenceId", "createdAt",
                "lastChanged", "createdBy", "lastChangedBy");
        assertThat(names(byName)).containsExactly("alpha", "bravo");
        assertThat(names(next)).containsExactly("charlie", "delta");
        assertThat(names(filtered)).containsExactly("bravo");
        assertThat(names(byType)).containsExactly("delta");
        http.get().uri(fillers() + "?sort=regex:asc").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.detail")
                .value(d -> assertThat(d.toString()).contains("_id, createdAt, lastChanged, name, referenceId, type"));
        http.get().uri(fillers() + "?limit=0").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest();
    }

    @Test
    void givenARegexAndASlotFiller_whenRead_thenTheFullObjectWithItsPatternOrSlot() {
        Map<String, Object> regex = get(caller, fillers() + "/" + ids[0]);
        Map<String, Object> slot = get(caller, fillers() + "/" + ids[2]);
        Map<String, Object> age = get(caller, fillers() + "/" + ids[1]);
        assertThat(regex).containsEntry("type", "regex").containsEntry("regex", "^[0-9]{5}$")
                .containsEntry("contextKey", "echoKey").containsEntry("skipIfResultInContext", true)
                .doesNotContainKey("slot");
        assertThat(slot).containsEntry("slot", "DE-CITY").doesNotContainKey("regex");
        assertThat(age).doesNotContainKeys("regex", "slot");
        assertThat(regex.keySet()).contains("usePositiveOnly", "removeNegated", "storeResultInContext",
                "storeInContactProfile", "profileKey", "storeDetailedResults", "additionalValidation",
                "resultLocation", "createdBy", "lastChangedBy");
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAFillerChangedAndDeleted_whenItsHistoryAndAsOfAreRead_thenEveryVersionWithItsAuthor() {
        // given
        String id = ids[1];
        String path = fillers() + "/" + id;
        Caller editor = colleague(caller);
        Map<String, Object> before = get(caller, path);
        long beforeAt = jdbc.queryForObject("SELECT max(position) FROM event_log WHERE organisation_id = ?", Long.class,
                caller.organisationId());
        position = append(id, new SlotFillerUpdatedEvent(id, flowId, projectId, caller.organisationId(),
                List.of("name", "type", "regex"), "zip", "regex", "^[0-9]+$", null, false, false, true, "alphaKey",
                false, "", false, true, "", "", editor.userId(), 2000));
        Map<String, Object> after = get(caller, path);
        position = append(id, new SlotFillerDeletedEvent(id, flowId, projectId, caller.organisationId(),
                editor.userId(), 3000));
        // when
        List<Map<String, Object>> history = items(get(caller, path + "/history"));
        // then
        assertThat(after).containsEntry("name", "zip").containsEntry("regex", "^[0-9]+$")
                .containsEntry("lastChangedBy", editor.userId());
        assertThat(history).extracting(h -> h.get("type")).containsExactly("SlotFillerCreated", "SlotFillerUpdated",
                "SlotFillerDeleted");
        assertThat(history).extracting(h -> h.get("userReference")).containsExactly(caller.userId(), editor.userId(),
                editor.userId());
        assertThat(get(caller, path + "?asOf=" + beforeAt)).isEqualTo(before);
        long editedAt = ((Number) history.get(1).get("position")).longValue();
        assertThat(get(caller, path + "?asOf=" + editedAt)).isEqualTo(after);
        http.get().uri(path).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        // the audit trail names the slot filler under its flow, and who deleted it
        List<Map<String, Object>> audit = items(get(caller, "/v2.0/auditevents?limit=100"));
        assertThat(audit).anySatisfy(event -> assertThat(event).containsEntry("type", "delete")
                .containsEntry("userReference", editor.userId())
                .extracting(e -> e.get("chain")).asList().contains(Map.of("elementType", "flow", "elementId", flowId),
                        Map.of("elementType", "slotFiller", "elementId", id)));
    }

    @Test
    void givenAFlowWithFillers_whenTheFlowIsDeleted_thenItsFillersAndTheListAreGone() {
        // when
        position = append(flowId, new FlowDeletedEvent(flowId, projectId, caller.organisationId(), caller.userId(),
                4000));
        // then
        http.get().uri(fillers()).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM slot_filler_view WHERE flow_id = ?", Long.class, flowId))
                .isZero();
        // a slot filler event that commits after its flow's deletion leaves no orphan row
        String late = Ids.newId();
        position = append(late, created(late, flowId, "late", "age", 4001));
        http.get().uri(fillers() + "/" + late).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isNotFound();
    }

    @Test
    void givenAnotherOrganisationOrAnotherFlow_whenFillersAreRead_then404AndNothingOfTheirs() {
        // given
        Caller stranger = newOrganisation();
        String otherFlow = Ids.newId();
        position = append(otherFlow, new FlowCreatedEvent(otherFlow, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "Other", "", caller.userId(), 1000));
        // when / then
        http.get().uri(fillers()).header("X-API-Key", stranger.apiKey()).exchange().expectStatus().isNotFound();
        String strangers = http.get().uri(fillers() + "/" + ids[0]).header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isNotFound().expectBody(Map.class).returnResult().getResponseBody().get("detail")
                .toString();
        String missing = Ids.newId();
        String nobodys = http.get().uri(fillers() + "/" + missing).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound().expectBody(Map.class).returnResult().getResponseBody().get("detail")
                .toString();
        assertThat(strangers).isEqualTo("Slot filler " + ids[0] + " does not exist.");
        assertThat(nobodys).isEqualTo("Slot filler " + missing + " does not exist.");
        http.get().uri(fillers() + "/" + ids[0] + "/history").header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/flows/" + otherFlow + "/slotfillers/" + ids[0]).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isNotFound();
        assertThat(get(caller, "/v2.0/flows/" + otherFlow + "/slotfillers").get("total")).isEqualTo(0);
        http.get().uri(fillers() + "/bad").header("X-API-Key", caller.apiKey()).exchange().expectStatus().isBadRequest();
    }
}
