package ai.convo.contract.intent;

import java.util.LinkedHashMap;
import java.util.Map;

/** An example sentence as the API shows it; {@code localeReference} is the locale it was written in. */
public record SentenceRecord(
        String id,
        String text,
        String localeReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("text", text);
        wire.put("localeReference", localeReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
