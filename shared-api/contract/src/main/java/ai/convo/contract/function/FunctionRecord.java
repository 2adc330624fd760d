package ai.convo.contract.function;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Function as the API shows it. Both services produce exactly this shape. */
public record FunctionRecord(
        String id,
        String name,
        String code,
        String referenceId,
        boolean disabled,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public static final int MAX_NAME_LENGTH = 200;
    public static final int MAX_CODE_LENGTH = 500_000;

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("name", name);
        wire.put("code", code);
        wire.put("referenceId", referenceId);
        wire.put("isDisabled", disabled);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
