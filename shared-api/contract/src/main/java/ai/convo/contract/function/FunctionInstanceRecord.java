package ai.convo.contract.function;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A function instance as the API shows it: the client's list item, plus {@code functionId}, {@code parameters}, {@code logs} on read. */
public record FunctionInstanceRecord(
        String id,
        String functionId,
        String trigger,
        FunctionInstanceStatus status,
        String error,
        Map<String, Object> parameters,
        List<String> logs,
        long createdAt,
        Long finishedAt) {

    public static final int MAX_ERROR_LENGTH = 2_000;
    public static final String STOPPED = "Stopped by a user.";

    public Map<String, Object> toListWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("trigger", trigger);
        wire.put("status", status.name());
        wire.put("error", error);
        wire.put("createdAt", createdAt);
        wire.put("finishedAt", finishedAt);
        return wire;
    }

    public Map<String, Object> toWire() {
        Map<String, Object> wire = toListWire();
        wire.put("functionId", functionId);
        wire.put("parameters", parameters);
        wire.put("logs", logs);
        return wire;
    }
}
