package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.intent.IntentDeletedEvent;
import java.util.List;
import java.util.Map;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Deleting an intent removes it from every state of its flow, in the same transaction: the test publishes the
 * IntentDeletedEvent exactly as the intent aggregate's command would (a unit of work with the JDBC transaction),
 * and the write-side lookups' subscribing processor tells the flow aggregate.
 */
class StateIntentDeletionApiTest extends FlowApiSupport {

    private static final long DELETED_AT = 1_800_000_000L;

    @Autowired
    EventStore eventStore;
    @Autowired
    TransactionManager axonTransactionManager;

    private Map<String, Object> flow;
    private String flowId;
    private String greet;
    private String order;

    @BeforeEach
    void flowWithIntents() {
        flow = newFlow("Intents vanish");
        flowId = (String) flow.get("_id");
        greet = intentOf(flowId, "greet");
        order = intentOf(flowId, "order");
    }

    /** What the intents feature's DeleteIntentCommand appends; runs the write-side lookups in its transaction. */
    private void intentDeleted(String intentId, String ofFlow, String projectId, String by) {
        GenericDomainEventMessage<IntentDeletedEvent> message = new GenericDomainEventMessage<>("IntentAggregate",
                intentId, 0, new IntentDeletedEvent(intentId, ofFlow, projectId, flowOrganisation(), by, DELETED_AT));
        DefaultUnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(message);
        unitOfWork.attachTransaction(axonTransactionManager);
        unitOfWork.execute(() -> eventStore.publish(message));
    }

    private String flowOrganisation() {
        return jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE email = ?", String.class, ADMIN_EMAIL);
    }

    private Map<String, Object> current(Map<String, Object> state) {
        return json(send("PATCH", "/v2.0/flows/" + flowId + "/states/" + state.get("_id"), ADMIN_KEY, Map.of()), 200);
    }

    @Test
    void givenStatesNamingAnIntent_whenTheIntentIsDeleted_thenEveryStateForgetsItAtOnce() {
        // given
        Map<String, Object> both = createState(ADMIN_KEY, flowId, Map.of("name", "Both", "intentIds", List.of(greet, order)));
        Map<String, Object> onlyGreet = createState(ADMIN_KEY, flowId, Map.of("name", "Greet", "intentIds", List.of(greet)));
        Map<String, Object> onlyOrder = createState(ADMIN_KEY, flowId, Map.of("name", "Order", "intentIds", List.of(order)));
        String deleter = Ids.newId();
        long updates = eventsOfType("StateUpdatedEvent");
        // when
        intentDeleted(greet, flowId, (String) flow.get("projectReference"), deleter);
        // then: the flow aggregate recorded one update per state that named it, with who deleted it and when
        assertThat(eventsOfType("StateUpdatedEvent")).isEqualTo(updates + 2);
        Map<String, Object> bothNow = current(both);
        assertThat(bothNow.get("intentIds")).isEqualTo(List.of(order));
        assertThat(bothNow.get("lastChangedBy")).isEqualTo(deleter);
        assertThat(((Number) bothNow.get("lastChanged")).longValue()).isEqualTo(DELETED_AT);
        assertThat(current(onlyGreet).get("intentIds")).isEqualTo(List.of());
        assertThat(current(onlyOrder)).isEqualTo(onlyOrder);
    }

    @Test
    void givenNoStateNamingTheIntent_whenItIsDeleted_thenNoStateChanges() {
        // given
        Map<String, Object> state = createState(ADMIN_KEY, flowId, Map.of("name", "Order", "intentIds", List.of(order)));
        long updates = eventsOfType("StateUpdatedEvent");
        // when
        intentDeleted(greet, flowId, (String) flow.get("projectReference"), Ids.newId());
        // then
        assertThat(eventsOfType("StateUpdatedEvent")).isEqualTo(updates);
        assertThat(current(state)).isEqualTo(state);
    }

    @Test
    void givenADeletedFlowOrOneOfADeletedProject_whenAnIntentOfItIsDeleted_thenTheDeletionStillSucceeds() {
        // given
        createState(ADMIN_KEY, flowId, Map.of("name", "Doomed", "intentIds", List.of(greet)));
        send("DELETE", "/v2.0/flows/" + flowId, ADMIN_KEY, null).expectStatus().isNoContent();
        Map<String, Object> orphan = newFlow("Orphan intents");
        String orphanIntent = intentOf((String) orphan.get("_id"), "lost");
        createState(ADMIN_KEY, (String) orphan.get("_id"), Map.of("name", "Lost", "intentIds", List.of(orphanIntent)));
        send("DELETE", "/v2.0/projects/" + orphan.get("projectReference"), ADMIN_KEY, null).expectStatus().isNoContent();
        long events = eventCount();
        // when
        intentDeleted(greet, flowId, (String) flow.get("projectReference"), Ids.newId());
        intentDeleted(orphanIntent, (String) orphan.get("_id"), (String) orphan.get("projectReference"), Ids.newId());
        // then: the two deletions are stored, and nothing else
        assertThat(eventCount()).isEqualTo(events + 2);
    }
}
