package ai.convo.contract.project;

import java.util.LinkedHashMap;
import java.util.Map;

/** A project as the API shows it. Both services produce exactly this shape. */
public record ProjectRecord(
        String id,
        String name,
        String color,
        String primaryLocaleReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("name", name);
        wire.put("color", color);
        wire.put("primaryLocaleReference", primaryLocaleReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
