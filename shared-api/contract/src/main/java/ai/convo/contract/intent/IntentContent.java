package ai.convo.contract.intent;

import java.util.List;
import java.util.Map;

/**
 * The editable fields of an intent, as a create command carries them (absent fields already defaulted).
 * {@code parentIntentId} and {@code bias} may be null (a root intent; no bias chosen).
 */
public record IntentContent(
        String name,
        String description,
        List<String> tags,
        boolean rejectIntent,
        boolean disabled,
        IntentId parentIntentId,
        String condition,
        List<String> confirmationSentences,
        String disambiguationSentence,
        List<String> rules,
        Map<String, Object> data,
        ChildFeatures childFeatures,
        IntentBias bias) {

    /** An intent with only a name: every other field at its default. */
    public static IntentContent named(String name) {
        return new IntentContent(name, "", List.of(), false, false, null, "", List.of(), "", List.of(), Map.of(),
                ChildFeatures.NONE, null);
    }

    public IntentContent withParent(IntentId parent) {
        return new IntentContent(name, description, tags, rejectIntent, disabled, parent, condition,
                confirmationSentences, disambiguationSentence, rules, data, childFeatures, bias);
    }
}
