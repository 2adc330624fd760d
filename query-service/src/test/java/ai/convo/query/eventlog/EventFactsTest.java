package ai.convo.query.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.ContractEvents;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every event type of the contract, found on the class path (so a new one cannot be forgotten), gives the log and
 * the audit trail what the official client's types allow: a known resource type ending the chain, the resource's
 * id, an audit type of TAuditEventType and, where there is one, an actionType of the client's actionTypes.
 */
class EventFactsTest {

    /** TAuditEventType and the part of the client's actionTypes we use. */
    private static final Set<String> AUDIT_TYPES = Set.of("action", "create", "replace", "patch", "delete", "unauthorized");
    private static final Set<String> ACTION_TYPES = Set.of("cancelTask", "restoreSnapshot", "createSnapshot",
            "createApiKey", "createUser", "createAuthenticatedAmazonUser", "deleteAmazonAccount");

    @Test
    void everyEventTypeHasAResourceAChainAndAnAuditKind() throws Exception {
        List<Class<?>> events = eventTypes();
        assertThat(events).hasSizeGreaterThan(50);
        for (Class<?> type : events) {
            Object event = instance(type);
            EventFacts facts = EventFacts.of(event, "aggregate");
            assertThat(LogQuery.RESOURCE_TYPES).as(type.getSimpleName()).contains(facts.resourceType());
            assertThat(facts.resourceId()).as(type.getSimpleName()).isNotNull();
            assertThat(facts.chain().get(facts.chain().size() - 1))
                    .as(type.getSimpleName()).containsEntry("elementType", facts.resourceType());
            assertThat(AUDIT_TYPES).as(type.getSimpleName()).contains(facts.auditType());
            if (facts.actionType() != null) {
                assertThat(ACTION_TYPES).as(type.getSimpleName()).contains(facts.actionType());
            }
            String org = EventFacts.organisationOf(event);
            assertThat(org).as(type.getSimpleName())
                    .isEqualTo(type.getSimpleName().startsWith("SystemMessage") ? EventFacts.SYSTEM : "organisationId-v");
        }
    }

    @Test
    void theAuditKindOfCommandsThatAreNotPlainCreatesUpdatesAndDeletes() throws Exception {
        assertKind("ai.convo.contract.snapshot.SnapshotRequestedEvent", "action", "createSnapshot", "snapshot");
        assertKind("ai.convo.contract.snapshot.SnapshotRestoreRequestedEvent", "action", "restoreSnapshot", "snapshot");
        assertKind("ai.convo.contract.task.TaskCancelRequestedEvent", "action", "cancelTask", "task");
        assertKind("ai.convo.contract.locale.PrimaryLocaleChangedEvent", "patch", null, "locale");
        assertKind("ai.convo.contract.state.DefaultStateChangedEvent", "patch", null, "flowState");
        assertKind("ai.convo.contract.intent.SentenceDeletedEvent", "delete", null, "examplesentence");
        assertKind("ai.convo.contract.identity.ApiKeyRevokedEvent", "delete", null, "apiKey");
        EventFacts sentence = EventFacts.of(instance(Class.forName("ai.convo.contract.intent.SentenceUpdatedEvent")), "a");
        assertThat(sentence.chain()).extracting(c -> c.get("elementType")).containsExactly("flow", "intent", "examplesentence");
        assertThat(sentence.chain()).extracting(c -> c.get("elementId")).containsExactly("flowId-v", "intentId-v", "sentenceId-v");
        assertThat(sentence.actorId()).isEqualTo("changedBy-v");
    }

    @Test
    void theAuditPayloadHasNoSecretNoActorAndNoBulk() {
        Map<String, Object> shown = EventFacts.auditPayload(Map.of("keyHash", "h", "passwordHash", "p", "accessToken", "a",
                "createdBy", "u", "organisationId", "o", "createdAt", 5, "label", "ci", "records", List.of(1, 2, 3)));
        assertThat(shown).containsOnlyKeys("label", "recordCount").containsEntry("recordCount", 3);
    }

    private static void assertKind(String type, String audit, String action, String resource) throws Exception {
        EventFacts facts = EventFacts.of(instance(Class.forName(type)), "a");
        assertThat(facts.auditType()).as(type).isEqualTo(audit);
        assertThat(facts.actionType()).as(type).isEqualTo(action);
        assertThat(facts.resourceType()).as(type).isEqualTo(resource);
    }

    private static List<Class<?>> eventTypes() throws Exception {
        return ContractEvents.types();
    }

    /** A record with every string its component's name + "-v", collections empty, numbers 0. */
    private static Object instance(Class<?> type) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> t = components[i].getType();
            types[i] = t;
            values[i] = t == String.class ? components[i].getName() + "-v"
                    : t == int.class ? 0 : t == long.class ? 0L : t == boolean.class ? false : t == double.class ? 0.0
                    : t == List.class ? List.of() : t == Map.class ? Map.of()
                    : t.isEnum() ? t.getEnumConstants()[0] : null;
        }
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        return constructor.newInstance(values);
    }
}
