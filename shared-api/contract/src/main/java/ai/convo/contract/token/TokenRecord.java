package ai.convo.contract.token;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Token as the API shows it (the API calls it a snippet). Both services produce exactly this shape. */
public record TokenRecord(
        String id,
        String label,
        String type,
        String script,
        String referenceId,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public static final int MAX_LABEL_LENGTH = 200;
    public static final int MAX_SCRIPT_LENGTH = 100_000;

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("label", label);
        wire.put("type", type);
        wire.put("script", script);
        wire.put("referenceId", referenceId);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
