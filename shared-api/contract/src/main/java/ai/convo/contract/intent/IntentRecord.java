package ai.convo.contract.intent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An intent as the API shows it. Both services produce exactly these shapes: {@link #toWire(String)} is the
 * full record, {@link #toListItem(String, long)} a list item. {@code localeReference} is not stored on the
 * intent: it is the locale whose localized data (the example sentences) the answer describes, see
 * {@link IntentLocales}.
 */
public record IntentRecord(
        String id,
        String referenceId,
        String name,
        String description,
        List<String> tags,
        boolean rejectIntent,
        boolean disabled,
        String parentIntentId,
        String condition,
        List<String> confirmationSentences,
        String disambiguationSentence,
        List<String> rules,
        Map<String, Object> data,
        ChildFeatures childFeatures,
        String biasTowardsParentOrChildIntents,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    /**
     * A list item: the list fields, then the number of sentences in {@code localeReference}. (The feedback report
     * and, with includeChildren, the nested children are added by the list.)
     */
    public Map<String, Object> toListItem(String localeReference, long sentenceCount) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("name", name);
        wire.put("description", description);
        wire.put("tags", tags);
        wire.put("isRejectIntent", rejectIntent);
        wire.put("isDisabled", disabled);
        wire.put("localeReference", localeReference);
        wire.put("parentIntentId", parentIntentId);
        wire.put("sentenceCount", sentenceCount);
        return wire;
    }

    public Map<String, Object> toWire(String localeReference) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("name", name);
        wire.put("description", description);
        wire.put("tags", tags);
        wire.put("isRejectIntent", rejectIntent);
        wire.put("isDisabled", disabled);
        wire.put("localeReference", localeReference);
        wire.put("parentIntentId", parentIntentId);
        wire.put("condition", condition);
        wire.put("confirmationSentences", confirmationSentences);
        wire.put("disambiguationSentence", disambiguationSentence);
        wire.put("rules", rules);
        wire.put("data", data);
        wire.put("childFeatures", childFeatures == null ? false : childFeatures.toWire());
        wire.put("biasTowardsParentOrChildIntents", biasTowardsParentOrChildIntents);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
