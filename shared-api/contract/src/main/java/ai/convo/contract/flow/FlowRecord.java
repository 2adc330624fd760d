package ai.convo.contract.flow;

import java.util.LinkedHashMap;
import java.util.Map;

/** A flow as the API shows it. Both services produce exactly this shape. */
public record FlowRecord(
        String id,
        String name,
        String description,
        String referenceId,
        String projectReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("name", name);
        wire.put("description", description);
        wire.put("referenceId", referenceId);
        wire.put("projectReference", projectReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
