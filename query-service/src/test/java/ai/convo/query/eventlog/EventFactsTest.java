package ai.convo.query.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.resource.ResourceType;
import ai.convo.contract.resource.ResourceTypes;
import ai.convo.testing.ContractEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every event type of the contract, found on the class path (so a new one cannot be forgotten), belongs to exactly
 * one resource type (ResourceTypes) and gives the log and the audit trail what the official client's types allow: a
 * known resource type ending the chain, the resource's id, an audit type of TAuditEventType and, where there is one,
 * an actionType of the client's actionTypes.
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
    void givenEveryEventTypeOfTheContract_whenMatchedToResourceTypes_thenEachBelongsToExactlyOne() throws Exception {
        // given: every event record on the class path; when: each is matched against the resource types
        List<String> problems = ownershipProblems(eventTypes(), ResourceTypes.ALL);
        // then
        assertThat(problems).isEmpty();
    }

    /** A planted event nobody claims, and a planted type claiming what another already does: both reported. */
    @Test
    void givenAnUnclaimedEventAndADoublyClaimedOne_whenMatched_thenTheGuardNamesBoth() throws Exception {
        List<ResourceType> withDuplicate = new ArrayList<>(ResourceTypes.ALL);
        withDuplicate.add(ResourceType.named("slotFiller", "slotFillerId", "SlotFiller", "LocaleUpdated")
                .noHistory("planted").notInSnapshots("planted"));
        List<String> problems = ownershipProblems(List.of(PlantedNobodysThingHappenedEvent.class,
                Class.forName("ai.convo.contract.locale.LocaleUpdatedEvent")), withDuplicate);
        assertThat(problems).containsExactly(
                "PlantedNobodysThingHappenedEvent belongs to no resource type (add its prefix to one in ResourceTypes)",
                "LocaleUpdatedEvent belongs to [locale, slotFiller]; a prefix of exactly one type must match it");
    }

    private record PlantedNobodysThingHappenedEvent(String thingId) {
    }

    /** Each event type belongs to exactly one resource type (one whose event-name prefixes match it). */
    static List<String> ownershipProblems(List<Class<?>> events, List<ResourceType> types) {
        List<String> problems = new ArrayList<>();
        for (Class<?> event : events) {
            String type = EventFacts.typeName(event);
            List<String> owners = types.stream().filter(t -> t.claims(type)).map(ResourceType::name).toList();
            if (owners.isEmpty()) {
                problems.add(event.getSimpleName() + " belongs to no resource type (add its prefix to one in "
                        + "ResourceTypes)");
            } else if (owners.size() > 1) {
                problems.add(event.getSimpleName() + " belongs to " + owners + "; a prefix of exactly one type must "
                        + "match it");
            }
        }
        return problems;
    }

    @Test
    void theAuditKindOfCommandsThatAreNotPlainCreatesUpdatesAndDeletes() throws Exception {
        assertKind("ai.convo.contract.snapshot.SnapshotRequestedEvent", "action", "createSnapshot", "snapshot");
        assertKind("ai.convo.contract.snapshot.SnapshotRestoreRequestedEvent", "action", "restoreSnapshot", "snapshot");
        assertKind("ai.convo.contract.task.TaskCancelRequestedEvent", "action", "cancelTask", "task");
        // a training is an action on its flow; no actionType: trainIntents is not a value known from the client's list
        assertKind("ai.convo.contract.flow.FlowIntentsTrainedEvent", "action", null, "flow");
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

    private static Object instance(Class<?> type) throws Exception {
        return ContractEvents.sample(type);
    }
}
