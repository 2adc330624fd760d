package ai.convo.command.snapshot;

import ai.convo.contract.slotfiller.SlotFillerSettings;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The canonical content of a snapshot, stored as JSON and hashed. It holds no {@code _id}s and no meta (who and
 * when): resources are identified by their {@code referenceId}, and every link between them (a fallback locale, a
 * parent intent, a state's intents, a sentence's locale, childFeatures) names a referenceId. Lists are sorted by
 * referenceId (sentences by locale, then text), so equal content gives equal bytes and so an equal hash.
 */
record SnapshotContent(int format, List<Locale> locales, List<Token> tokens, List<Function> functions,
                       List<Flow> flows) {

    static final int FORMAT = 1;

    /**
     * {@code yesNoIntents}: the locale's yes, no and reject intents that differ from one never written (which holds
     * its language's built-in sentences, no rules, enabled); left out of the bytes when empty, so content taken
     * before they were captured keeps its bytes and hash.
     */
    record Locale(String referenceId, String name, String nluLanguage, boolean primary,
                  String fallbackLocaleReference,
                  @JsonInclude(JsonInclude.Include.NON_EMPTY) List<YesNoIntent> yesNoIntents) {
        Locale {
            yesNoIntents = yesNoIntents == null ? List.of() : yesNoIntents;
        }
    }

    /** A yes/no intent of a locale: its kind (yes, no, reject), rules, whether disabled, sentence texts sorted. */
    record YesNoIntent(String kind, List<String> rules, boolean disabled, List<String> sentences) {
    }

    record Token(String referenceId, String label, String type, String script) {
    }

    record Function(String referenceId, String name, String code, boolean disabled) {
    }

    /**
     * {@code slotFillers} is left out of the bytes when empty, so content without slot fillers (every snapshot taken
     * before they existed) keeps its bytes and hash; one stored without them reads as none. {@code trained} pins
     * the flow's last training per locale, left out the same way (a flow never trained has none).
     */
    record Flow(String referenceId, String name, String description, List<State> states, List<Intent> intents,
                @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SlotFiller> slotFillers,
                @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Trained> trained) {
        Flow {
            slotFillers = slotFillers == null ? List.of() : slotFillers;
            trained = trained == null ? List.of() : trained;
        }
    }

    /**
     * A flow's last training in a locale: its model (kept content-addressed) and the hash of the set it was trained
     * on, which names intent ids; a restore brings it back where the restored set has that hash.
     */
    record Trained(String localeReference, String modelId, String trainingSetHash, String mode) {
    }

    record SlotFiller(String referenceId, SlotFillerSettings settings) {
    }

    record State(String referenceId, String name, String type, boolean isDefault, List<String> intentReferences) {
    }

    /** {@code childFeatures}: a boolean, or a list of intent referenceIds. */
    record Intent(String referenceId, String name, String description, List<String> tags, boolean rejectIntent,
                  boolean disabled, String parentReference, String condition, List<String> confirmationSentences,
                  String disambiguationSentence, List<String> rules, Map<String, Object> data, Object childFeatures,
                  String biasTowardsParentOrChildIntents, List<Sentence> sentences) {
    }

    record Sentence(String localeReference, String text) {
    }

    int states() {
        return flows.stream().mapToInt(f -> f.states().size()).sum();
    }

    int intents() {
        return flows.stream().mapToInt(f -> f.intents().size()).sum();
    }

    int sentences() {
        return flows.stream().flatMap(f -> f.intents().stream()).mapToInt(i -> i.sentences().size()).sum();
    }
}
