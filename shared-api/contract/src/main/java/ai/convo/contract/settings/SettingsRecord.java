package ai.convo.contract.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of a project or flow as the API shows them: {@code _id} is the owner's id, the values a client set
 * over the schema's defaults, and when they last changed (the owner's creation until a first change). A flow's
 * per-locale settings ({@code localeSettings}, locale id to inheritFallbackLocaleModel) are shown as the client's list.
 */
public record SettingsRecord(
        String ownerId,
        Map<String, Object> stored,
        Map<String, Boolean> localeSettings,
        long createdAt,
        String createdBy,
        long lastChanged,
        String lastChangedBy) {

    public Map<String, Object> toWire(SettingsSchema schema) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", ownerId);
        wire.putAll(schema.render(stored));
        if (localeSettings != null) {
            List<Map<String, Object>> locales = localeSettings.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .map(e -> {
                        Map<String, Object> one = new LinkedHashMap<>();
                        one.put("localeReference", e.getKey());
                        one.put("inheritFallbackLocaleModel", e.getValue());
                        return one;
                    })
                    .toList();
            wire.put("localeSettings", locales);
        }
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
