package ai.convo.contract.knowledge;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Knowledge Store as the API shows it. Both services produce exactly this shape. */
public record KnowledgeStoreRecord(
        String id,
        String referenceId,
        String name,
        String description,
        String language,
        String projectReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    /** A store has no lifecycle of its own here: it is usable from its creation until its deletion. */
    public static final String STATUS = "ready";

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("name", name);
        wire.put("description", description);
        wire.put("language", language);
        wire.put("status", STATUS);
        wire.put("projectReference", projectReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
