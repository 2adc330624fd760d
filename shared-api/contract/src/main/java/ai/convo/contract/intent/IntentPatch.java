package ai.convo.contract.intent;

import java.util.List;
import java.util.Map;

/**
 * The fields of an intent PATCH. A null means "leave unchanged"; {@code parentIntentId} and {@code bias}
 * additionally tell an explicit JSON null (clear it) apart through their {@code ...Present} flags.
 */
public record IntentPatch(
        String name,
        String description,
        List<String> tags,
        Boolean rejectIntent,
        Boolean disabled,
        boolean parentPresent,
        IntentId parentIntentId,
        String condition,
        List<String> confirmationSentences,
        String disambiguationSentence,
        List<String> rules,
        Map<String, Object> data,
        ChildFeatures childFeatures,
        boolean biasPresent,
        IntentBias bias) {

    public static IntentPatch empty() {
        return new IntentPatch(null, null, null, null, null, false, null, null, null, null, null, null, null, false, null);
    }

    public static IntentPatch name(String name) {
        return new IntentPatch(name, null, null, null, null, false, null, null, null, null, null, null, null, false, null);
    }

    public static IntentPatch parent(IntentId parent) {
        return new IntentPatch(null, null, null, null, null, true, parent, null, null, null, null, null, null, false, null);
    }
}
