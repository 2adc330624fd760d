package ai.convo.contract.state;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A state as the API shows it. Both services produce exactly this shape. */
public record StateRecord(
        String id,
        String name,
        String referenceId,
        boolean isDefault,
        String type,
        List<String> intentIds,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public StateRecord {
        intentIds = intentIds == null ? List.of() : List.copyOf(intentIds);
    }

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("name", name);
        wire.put("referenceId", referenceId);
        wire.put("isDefault", isDefault);
        wire.put("type", type);
        wire.put("intentIds", intentIds);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
