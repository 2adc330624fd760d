package ai.convo.contract.resource;

import static ai.convo.contract.resource.ResourceType.named;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every resource type, one entry each: what the event log, the audit trail, the history routes, the rebuild and the
 * snapshots know of it (see {@link ResourceType}). A new type is one entry here; guard tests check the rest (README
 * "Adding a resource"). The order is the rebuild's order of projections.
 */
public final class ResourceTypes {

    private static final String IDENTITY = "kept by the identity store (common schema), not by a query-side view";
    private static final String NOT_PROJECT_CONTENT = "not content of a project";

    public static final List<ResourceType> ALL = List.of(
            named("project", "projectId", "Project").view("project_view", "projects")
                    .history("Project", "/v2.0/projects/{projectId}/history")
                    .notInSnapshots("a snapshot holds a project's content; a restore keeps the project's own name "
                            + "and settings"),
            named("locale", "localeId", "Locale", "PrimaryLocaleChanged=primaryLocaleId")
                    .view("locale_view", "locales").history("Locale", "/v2.0/locales/{localeId}/history").inSnapshots(),
            named("snippet", "tokenId", "Token").view("token_view", "tokens")
                    .history("Token", "/v2.0/projects/{projectId}/snippets/{snippetId}/history").inSnapshots(),
            named("function", "functionId", "FunctionCreated", "FunctionUpdated", "FunctionDeleted").view("function_view", "functions")
                    .history("Function", "/v2.0/functions/{functionId}/history").inSnapshots(),
            named("flow", "flowId", "Flow").view("flow_view", "flows")
                    .history("Flow", "/v2.0/flows/{flowId}/history").inSnapshots(),
            named("flowState", "stateId", "State", "DefaultStateChanged=defaultStateId").under("flow:flowId")
                    .view("state_view", "states")
                    .history("State", "/v2.0/flows/{flowId}/states/{stateId}/history").inSnapshots(),
            named("intent", "intentId", "Intent").under("flow:flowId").view("intent_view", "intents")
                    .history("Intent", "/v2.0/flows/{flowId}/intents/{intentId}/history").inSnapshots(),
            named("examplesentence", "sentenceId", "Sentence").under("flow:flowId", "intent:intentId")
                    .view("sentence_view", "intents")
                    .history("Sentence", "/v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}/history")
                    .inSnapshots(),
            named("knowledgeStore", "storeId", "KnowledgeStore").view("knowledge_store_view", "knowledge")
                    .history("Knowledge store", "/v2.0/knowledgestores/{knowledgeStoreId}/history")
                    .notInSnapshots("a snapshot holds no knowledge stores (docs: api-decisions)"),
            named("knowledgeSource", "sourceId", "KnowledgeSource").under("knowledgeStore:storeId")
                    .view("knowledge_source_view", "knowledge")
                    .history("Knowledge source", "/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/history",
                            "knowledgeStoreId=storeId")
                    .notInSnapshots("a snapshot holds no knowledge stores (docs: api-decisions)"),
            named("knowledgeChunk", "chunkId", "KnowledgeChunk").under("knowledgeStore:storeId", "knowledgeSource:sourceId")
                    .view("knowledge_chunk_view", "knowledge")
                    .history("Knowledge chunk",
                            "/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks/{chunkId}/history",
                            "knowledgeStoreId=storeId")
                    .notInSnapshots("a snapshot holds no knowledge stores (docs: api-decisions)"),
            named("snapshot", "snapshotId", "Snapshot").view("snapshot_view", "snapshots")
                    .history("Snapshot", "/v2.0/snapshots/{snapshotId}/history")
                    .notInSnapshots("a snapshot is what is taken; it never holds other snapshots"),
            named("task", "taskId", "Task").view("task_view", "tasks").history("Task", "/v2.0/tasks/{taskId}/history")
                    .notInSnapshots("a task is a record of work done, " + NOT_PROJECT_CONTENT),
            named("systemMessage", "systemMessageId", "SystemMessage").view("system_message_view", "system-messages")
                    .noHistory("a system message belongs to no organisation, and history is read per organisation")
                    .notInSnapshots("system-wide, " + NOT_PROJECT_CONTENT),
            named("voiceAssistantAccount", "accountId", "VoiceAssistant").under("user:userId")
                    .view("voice_assistant_link_view", "voice-assistant-links")
                    .noHistory("a link is made and removed, never changed; its row is keyed by account_id")
                    .notInSnapshots("a user's link, " + NOT_PROJECT_CONTENT),
            named("user", "userId", "UserRegistered", "Login", "FailedLoginAttempts", "UserCreated", "UserChanged",
                    "UserDeleted", "UserRole", "UserPasswordChanged").view(null, "login-attempts")
                    .noHistory(IDENTITY).notInSnapshots("organisation-level identity, " + NOT_PROJECT_CONTENT),
            named("analytics", "batchId", "CallRecords").view(null, "callcounter")
                    .noHistory("call records are counted, not kept as resources")
                    .notInSnapshots("usage data, " + NOT_PROJECT_CONTENT),
            named("apiKey", "apiKeyId", "ApiKey").under("user:userId").noHistory(IDENTITY)
                    .notInSnapshots("organisation-level identity, " + NOT_PROJECT_CONTENT),
            named("projectMember", "userId", "Member").under("project:projectId").noHistory(IDENTITY)
                    .notInSnapshots("who may change a project is not its content; a restore keeps its members"),
            named("organisation", "organisationId", "Organisation").noHistory(IDENTITY)
                    .notInSnapshots("organisation-level identity, " + NOT_PROJECT_CONTENT),
            // types added after the first release go last: the shipped projections keep their order
            named("functionInstance", "functionInstanceId", "FunctionInstance").under("function:functionId")
                    .view("function_instance_view", "function-instances")
                    .history("Function instance", "/v2.0/functions/{functionId}/instances/{instanceId}/history")
                    .notInSnapshots("an instance is a run of a function, not content of a project"),
            named("slotFiller", "slotFillerId", "SlotFiller").under("flow:flowId")
                    .view("slot_filler_view", "slotfillers")
                    .history("Slot filler", "/v2.0/flows/{flowId}/slotfillers/{slotFillerId}/history").inSnapshots(),
            named("yesNoIntent", "yesNoIntentId", "YesNo").under("locale:localeId")
                    .view("yes_no_intent_view", "yesnointents")
                    .noHistory("a yes/no intent's changes are read in the event log and the audit trail "
                            + "(resourceType=yesNoIntent); no history route was asked for")
                    .inSnapshots());

    /** Every event-name prefix with its type, the longest first: the first that matches is the longest. */
    private static final List<Map.Entry<String, ResourceType>> BY_PREFIX;

    static {
        Set<String> names = new HashSet<>();
        List<Map.Entry<String, ResourceType>> prefixes = new ArrayList<>();
        for (ResourceType type : ALL) {
            if (!names.add(type.name()) || type.history() == null || type.snapshot() == null) {
                throw new IllegalStateException(type.name() + ": a resource type is named once and says whether it "
                        + "keeps history and whether snapshots hold it");
            }
            type.events().keySet().forEach(prefix -> prefixes.add(Map.entry(prefix, type)));
        }
        prefixes.sort(Comparator.comparingInt((Map.Entry<String, ResourceType> e) -> e.getKey().length()).reversed());
        BY_PREFIX = List.copyOf(prefixes);
    }

    private ResourceTypes() {
    }

    /** The resource type an event type (its simple name without "Event") changes: its longest prefix's; or null. */
    public static ResourceType ofEvent(String eventType) {
        for (Map.Entry<String, ResourceType> prefix : BY_PREFIX) {
            if (eventType.startsWith(prefix.getKey())) {
                return prefix.getValue();
            }
        }
        return null;
    }

    public static Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        ALL.forEach(type -> names.add(type.name()));
        return names;
    }

    /** The query service's processing groups that keep resources, in the order of {@link #ALL}. */
    public static List<String> projections() {
        return ALL.stream().map(ResourceType::projection).filter(p -> p != null).distinct().toList();
    }
}
