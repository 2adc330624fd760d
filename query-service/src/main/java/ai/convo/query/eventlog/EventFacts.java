package ai.convo.query.eventlog;

import ai.convo.contract.resource.ResourceType;
import ai.convo.contract.resource.ResourceTypes;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
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
        // The resource type whose event-name prefix is the longest that matches (ResourceTypes).
        ResourceType resource = ResourceTypes.ofEvent(type);
        String resourceType = resource == null ? "unknown" : resource.name();
        String resourceId = resource == null ? null : field(payload, resource.idFieldOf(type));
        if (resource != null) {
            for (ResourceType.Parent parent : resource.parents()) {
                add(chain, parent.type(), field(payload, parent.idField()));
            }
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
        for (Map.Entry<String, Method> accessor : ACCESSORS.get(payload.getClass()).entrySet()) {
            if (ACTOR_FIELDS.contains(accessor.getKey())) {
                return value(payload, accessor.getKey(), accessor.getValue()) instanceof String s ? s : null;
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
        Method accessor = ACCESSORS.get(payload.getClass()).get(name);
        return accessor != null && value(payload, name, accessor) instanceof String s ? s : null;
    }

    /**
     * Each record type's component accessors by name, in declaration order, looked up once per type:
     * Class.getRecordComponents builds them anew on every call, and every event is asked several times (once per
     * segment by the event log's sequencing policy alone), which was a sixth of the query service's CPU under writes.
     */
    private static final ClassValue<Map<String, Method>> ACCESSORS = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            Map<String, Method> accessors = new LinkedHashMap<>();
            for (RecordComponent component : components == null ? new RecordComponent[0] : components) {
                accessors.put(component.getName(), component.getAccessor());
            }
            return Collections.unmodifiableMap(accessors);
        }
    };

    private static Object value(Object payload, String name, Method accessor) {
        try {
            return accessor.invoke(payload);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot read " + name + " of " + payload.getClass(), e);
        }
    }
}
