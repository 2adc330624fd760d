package ai.convo.contract.slotfiller;

import java.util.LinkedHashMap;
import java.util.Map;

/** A slot filler as the API shows it. Both services produce exactly this shape. */
public record SlotFillerRecord(
        String id,
        String referenceId,
        SlotFillerSettings settings,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    /** The client's full object: {@code regex} only for type regex, {@code slot} only for type slot. */
    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("name", settings.name());
        wire.put("type", settings.type());
        if (SlotFillerRules.REGEX.equals(settings.type())) {
            wire.put("regex", settings.regex());
        }
        if (SlotFillerRules.SLOT.equals(settings.type())) {
            wire.put("slot", settings.slot());
        }
        wire.put("usePositiveOnly", settings.usePositiveOnly());
        wire.put("removeNegated", settings.removeNegated());
        wire.put("storeResultInContext", settings.storeResultInContext());
        wire.put("contextKey", settings.contextKey());
        wire.put("storeInContactProfile", settings.storeInContactProfile());
        wire.put("profileKey", settings.profileKey());
        wire.put("storeDetailedResults", settings.storeDetailedResults());
        wire.put("skipIfResultInContext", settings.skipIfResultInContext());
        wire.put("additionalValidation", settings.additionalValidation());
        wire.put("resultLocation", settings.resultLocation());
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
