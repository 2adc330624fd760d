package ai.convo.query.eventlog;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the log and the audit trail say of one event, read off its payload: whose it is (organisation, project),
 * which resource it changed (in the official client's resource type names), the chain from the top resource down,
 * who did it, and what kind of audit event it is. Events are records; their component names are frozen with them.
 */
public record EventFacts(String organisationId, String projectId, String resourceType, String resourceId,
                         List<Map<String, String>> chain, String actorId, String auditType, String actionType) {

    /** The organisation key of events that belong to no organisation (system messages). */
    public static final String SYSTEM = "system";

    /** Fields that never leave the server, in the log, the audit trail or anywhere (issue 11: no secret, even hashed). */
    public static final Set<String> SECRET_FIELDS = Set.of("keyHash", "passwordHash", "accessToken", "refreshToken", "cipher");

    /** Payload types whose stored JSON holds a secret field, so the log cannot pass their bytes through as stored. */
    public static final Set<String> TYPES_WITH_SECRETS = Set.of("ai.convo.contract.identity.ApiKeyIssuedEvent",
            "ai.convo.contract.identity.UserRegisteredEvent", "ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent");

    private static final Set<String> ACTOR_FIELDS = Set.of("createdBy", "changedBy", "deletedBy", "requestedBy",
            "linkedBy", "unlinkedBy", "ingestedBy");

    /** The event's type on the wire: its class's simple name without "Event" (LocaleUpdated). */
    public static String typeName(Class<?> payloadType) {
        String name = payloadType.getSimpleName();
        return name.endsWith("Event") ? name.substring(0, name.length() - "Event".length()) : name;
    }

    /** The same, from a stored payload type (a class name). */
    public static String typeName(String payloadType) {
        String name = payloadType.substring(payloadType.lastIndexOf('.') + 1);
        return name.endsWith("Event") ? name.substring(0, name.length() - "Event".length()) : name;
    }

    public static String organisationOf(Object payload) {
        String org = field(payload, "organisationId");
        return org == null ? SYSTEM : org;
    }

    public static EventFacts of(Object payload, String aggregateId) {
        String type = typeName(payload.getClass());
        String org = organisationOf(payload);
        String project = field(payload, "projectId");
        String actor = actor(payload);
        List<Map<String, String>> chain = new ArrayList<>();
        String resourceType;
        String resourceId;
        if (type.startsWith("Sentence")) {
            add(chain, "flow", field(payload, "flowId"));
            add(chain, "intent", field(payload, "intentId"));
            resourceType = "examplesentence";
            resourceId = field(payload, "sentenceId");
        } else if (type.startsWith("Intent")) {
            add(chain, "flow", field(payload, "flowId"));
            resourceType = "intent";
            resourceId = field(payload, "intentId");
        } else if (type.startsWith("State") || type.equals("DefaultStateChanged")) {
            add(chain, "flow", field(payload, "flowId"));
            resourceType = "flowState";
            resourceId = type.equals("DefaultStateChanged") ? field(payload, "defaultStateId") : field(payload, "stateId");
        } else if (type.startsWith("Flow")) {
            resourceType = "flow";
            resourceId = field(payload, "flowId");
        } else if (type.startsWith("Locale") || type.equals("PrimaryLocaleChanged")) {
            resourceType = "locale";
            resourceId = type.equals("PrimaryLocaleChanged") ? field(payload, "primaryLocaleId") : field(payload, "localeId");
        } else if (type.startsWith("KnowledgeSource")) {
            add(chain, "knowledgeStore", field(payload, "storeId"));
            resourceType = "knowledgeSource";
            resourceId = field(payload, "sourceId");
        } else if (type.startsWith("KnowledgeStore")) {
            resourceType = "knowledgeStore";
            resourceId = field(payload, "storeId");
        } else if (type.startsWith("Snapshot")) {
            resourceType = "snapshot";
            resourceId = field(payload, "snapshotId");
        } else if (type.startsWith("Task")) {
            resourceType = "task";
            resourceId = field(payload, "taskId");
        } else if (type.startsWith("Token")) {
            resourceType = "snippet";
            resourceId = field(payload, "tokenId");
        } else if (type.startsWith("Function")) {
            resourceType = "function";
            resourceId = field(payload, "functionId");
        } else if (type.startsWith("Project")) {
            resourceType = "project";
            resourceId = field(payload, "projectId");
        } else if (type.startsWith("ApiKey")) {
            add(chain, "user", field(payload, "userId"));
            resourceType = "apiKey";
            resourceId = field(payload, "apiKeyId");
        } else if (type.equals("UserRegistered")) {
            resourceType = "user";
            resourceId = field(payload, "userId");
        } else if (type.startsWith("Organisation")) {
            resourceType = "organisation";
            resourceId = field(payload, "organisationId");
        } else if (type.startsWith("VoiceAssistant")) {
            add(chain, "user", field(payload, "userId"));
            resourceType = "voiceAssistantAccount";
            resourceId = field(payload, "accountId");
        } else if (type.startsWith("CallRecords")) {
            resourceType = "analytics";
            resourceId = field(payload, "batchId");
        } else if (type.startsWith("SystemMessage")) {
            resourceType = "systemMessage";
            resourceId = field(payload, "systemMessageId");
        } else {
            resourceType = "unknown";
            resourceId = aggregateId;
        }
        if (resourceId == null) {
            resourceId = aggregateId;
        }
        add(chain, resourceType, resourceId);
        if (type.startsWith("ApiKey")) {
            actor = field(payload, "userId");
        }
        String[] kind = auditKind(type);
        return new EventFacts(org, project, resourceType, resourceId, List.copyOf(chain), actor, kind[0], kind[1]);
    }

    /** {type, actionType} of the audit event a command with this (first) event is; actionType may be null. */
    static String[] auditKind(String type) {
        return switch (type) {
            case "SnapshotRequested" -> new String[] {"action", "createSnapshot"};
            case "SnapshotRestoreRequested" -> new String[] {"action", "restoreSnapshot"};
            case "SnapshotDeletionRequested" -> new String[] {"delete", null};
            case "TaskCancelRequested" -> new String[] {"action", "cancelTask"};
            case "ApiKeyIssued" -> new String[] {"create", "createApiKey"};
            case "UserRegistered" -> new String[] {"create", "createUser"};
            case "VoiceAssistantLinked" -> new String[] {"create", "createAuthenticatedAmazonUser"};
            case "VoiceAssistantUnlinked" -> new String[] {"delete", "deleteAmazonAccount"};
            case "CallRecordsIngested" -> new String[] {"create", null};
            default -> type.endsWith("Created") ? new String[] {"create", null}
                    : type.endsWith("Deleted") || type.endsWith("Revoked") ? new String[] {"delete", null}
                    : type.endsWith("Updated") || type.endsWith("Changed") ? new String[] {"patch", null}
                    : new String[] {"action", null};
        };
    }

    /**
     * What the audit trail shows as an event's payload: what changed, without ids the chain already names, who and
     * when (the audit event says), secrets, or bulk data (a call-record batch shows its counts, not its records).
     */
    public static Map<String, Object> auditPayload(Map<String, Object> payload) {
        Map<String, Object> shown = new LinkedHashMap<>();
        payload.forEach((name, value) -> {
            if (SECRET_FIELDS.contains(name) || ACTOR_FIELDS.contains(name) || name.equals("organisationId")
                    || name.equals("projectId") || (name.endsWith("At") && value instanceof Number)) {
                return;
            }
            if (name.equals("records") && value instanceof List<?> records) {
                shown.put("recordCount", records.size());
                return;
            }
            shown.put(name, value);
        });
        return shown;
    }

    private static String actor(Object payload) {
        for (RecordComponent component : components(payload)) {
            if (ACTOR_FIELDS.contains(component.getName())) {
                Object value = value(payload, component);
                return value instanceof String s ? s : null;
            }
        }
        return null;
    }

    private static void add(List<Map<String, String>> chain, String type, String id) {
        Map<String, String> element = new LinkedHashMap<>();
        if (id != null) {
            element.put("elementId", id);
        }
        element.put("elementType", type);
        chain.add(element);
    }

    static String field(Object payload, String name) {
        for (RecordComponent component : components(payload)) {
            if (component.getName().equals(name)) {
                Object value = value(payload, component);
                return value instanceof String s ? s : null;
            }
        }
        return null;
    }

    private static RecordComponent[] components(Object payload) {
        RecordComponent[] components = payload.getClass().getRecordComponents();
        return components == null ? new RecordComponent[0] : components;
    }

    private static Object value(Object payload, RecordComponent component) {
        try {
            return component.getAccessor().invoke(payload);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot read " + component.getName() + " of " + payload.getClass(), e);
        }
    }
}
