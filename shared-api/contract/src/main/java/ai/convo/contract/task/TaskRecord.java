package ai.convo.contract.task;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Task as the API shows it; both services produce exactly this shape. The spec's {@code lastCreatedAt} and
 * {@code lastChangedAt} carry the same instants as the meta fields {@code createdAt} and {@code lastChanged}.
 */
public record TaskRecord(
        String id,
        TaskStatus status,
        String type,
        Map<String, Object> parameters,
        int currentStep,
        int totalStep,
        String failReason,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public static final int MAX_TYPE_LENGTH = 100;
    public static final int MAX_FAIL_REASON_LENGTH = 2000;

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("status", status.name());
        wire.put("type", type);
        wire.put("parameters", parameters == null ? Map.of() : parameters);
        wire.put("lastChangedAt", lastChanged);
        wire.put("lastCreatedAt", createdAt);
        wire.put("currentStep", currentStep);
        wire.put("totalStep", totalStep);
        wire.put("failReason", failReason);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
