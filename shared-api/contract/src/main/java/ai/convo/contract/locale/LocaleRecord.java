package ai.convo.contract.locale;

import java.util.LinkedHashMap;
import java.util.Map;

/** A locale as the API shows it. Both services produce exactly this shape. */
public record LocaleRecord(
        String id,
        String referenceId,
        String name,
        boolean primary,
        String nluLanguage,
        String fallbackLocaleReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("name", name);
        wire.put("primary", primary);
        wire.put("nluLanguage", nluLanguage);
        wire.put("fallbackLocaleReference", fallbackLocaleReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
