package ai.convo.contract.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A settings PATCH is checked leaf by leaf against the schema, and a read is the defaults overlaid with what was set. */
class SettingsSchemaTest {

    @Test
    void givenValidNestedValues_whenPatched_thenFlatChangesInTheStoredShapesAndNoProblem() {
        // given
        Map<String, Object> body = Map.of(
                "timezone", "Europe/Berlin",
                "intentThreshold", Map.of("lower", 0, "upper", 0.75),
                "positiveConfirmationWords", List.of("ja", "klar"),
                "translationSettings", Map.of("connections", Map.of("google", Map.of("retries", 4, "connectionId",
                        "c-1"))),
                "audioPreviewSettings", new LinkedHashMap<>(Map.of("provider", "aws")));
        // when
        SettingsSchema.Patch patch = Settings.PROJECT.patch(body, Settings.METADATA);
        // then: numbers as Double, lists as ArrayList: the shapes an event and a snapshot read back as
        assertThat(patch.problems()).isEmpty();
        assertThat(patch.changes()).containsEntry("timezone", "Europe/Berlin")
                .containsEntry("intentThreshold.lower", 0.0).containsEntry("intentThreshold.upper", 0.75)
                .containsEntry("translationSettings.connections.google.retries", 4.0)
                .containsEntry("translationSettings.connections.google.connectionId", "c-1")
                .containsEntry("audioPreviewSettings.provider", "aws");
        assertThat(patch.changes().get("positiveConfirmationWords")).isEqualTo(List.of("ja", "klar"))
                .isInstanceOf(ArrayList.class);
    }

    @Test
    void givenMistakes_whenPatched_thenEachIsNamedByItsPathWithWhatIsAllowedAndNothingChanges() {
        // given
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("timezone", "Mars/Olympus");
        body.put("intentThreshold", Map.of("lower", 1.5));
        body.put("systemSlots", true);
        body.put("nope", 1);
        body.put("currencySettings", Map.of("currency", "EURO"));
        body.put("learnNewExampleSentencesThreshold", 2.5);
        body.put("negativeConfirmationWords", List.of("no", "no"));
        body.put("translationSettings", Map.of("connections", Map.of("yandex", Map.of())));
        body.put("yesNoLogic", null);
        // when
        SettingsSchema.Patch patch = Settings.PROJECT.patch(body, Settings.METADATA);
        // then
        assertThat(patch.changes()).isEmpty();
        assertThat(patch.problems()).containsOnlyKeys("timezone", "intentThreshold.lower", "systemSlots", "nope",
                "currencySettings.currency", "learnNewExampleSentencesThreshold", "negativeConfirmationWords",
                "translationSettings.connections.yandex", "yesNoLogic");
        assertThat(patch.problems().get("nope")).contains("unknown setting", "timezone", "systemSlots");
        assertThat(patch.problems().get("translationSettings.connections.yandex"))
                .contains("allowed in translationSettings.connections are: deepl, google, microsoft");
        assertThat(patch.problems().get("learnNewExampleSentencesThreshold")).contains("a whole number from 1 to 1000");
        assertThat(patch.problems().get("yesNoLogic")).contains("one of yesNoIntents, yesNoIntentsWithRules");
        assertThat(patch.problems().get("systemSlots")).contains("must be an object with any of: useDateSlots");
    }

    @Test
    void givenAReadSentBack_whenPatched_thenItsMetadataIsSkippedAndItChangesNothingButIsValid() {
        // given: a read of the defaults, as a client would send it back
        Map<String, Object> read = new LinkedHashMap<>(Map.of("_id", "x", "createdAt", 1, "lastChanged", 2,
                "createdBy", "u", "lastChangedBy", "u"));
        read.putAll(Settings.PROJECT.render(Map.of()));
        // when
        SettingsSchema.Patch patch = Settings.PROJECT.patch(read, Settings.METADATA);
        // then: every setting, at its default
        assertThat(patch.problems()).isEmpty();
        assertThat(patch.changes()).hasSize(Settings.PROJECT.leaves().size() - 4); // the optional ones, left out while unset
        patch.changes().forEach((path, value) -> assertThat(value).as(path)
                .isEqualTo(Settings.PROJECT.value(path, Map.of())));
        // metadata is skipped only at the top
        assertThat(Settings.PROJECT.patch(Map.of("intentThreshold", Map.of("_id", "x")), Settings.METADATA).problems())
                .containsKey("intentThreshold._id");
    }

    @Test
    void givenStoredValues_whenRendered_thenDefaultsOverlaidNestedInSchemaOrderWholeNumbersWholeAndUnsetOptionalsLeftOut() {
        // given
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("intentThreshold.upper", 0.9);
        stored.put("translationSettings.connections.deepl.timeout", 3000.0);
        stored.put("translationSettings.connections.deepl.customBaseUrl", "https://deepl.example.com");
        stored.put("audioPreviewSettings.provider", null);
        // when
        Map<String, Object> read = Settings.PROJECT.render(stored);
        // then
        assertThat(read.keySet()).startsWith("positiveConfirmationWords", "negativeConfirmationWords", "intentThreshold");
        assertThat(read.get("intentThreshold")).isEqualTo(Map.of("lower", 0.4, "upper", 0.9));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Map<String, Object>>> translation =
                (Map<String, Map<String, Map<String, Object>>>) read.get("translationSettings");
        assertThat(translation.get("connections").get("deepl")).containsEntry("timeout", 3000L)
                .containsEntry("retries", 1L).containsEntry("customBaseUrl", "https://deepl.example.com");
        assertThat(translation.get("connections").get("google")).doesNotContainKey("customBaseUrl")
                .containsEntry("connectionId", null);
        @SuppressWarnings("unchecked")
        Map<String, Object> knowledge = (Map<String, Object>) read.get("knowledgeAISettings");
        assertThat(knowledge).containsOnlyKeys("fileExtractor");
        assertThat(((Map<?, ?>) read.get("audioPreviewSettings")).get("provider")).isNull();
    }

    @Test
    void givenFlowSettings_whenProjectOnlySettingsArePatched_thenUnknownThere() {
        // given / when
        SettingsSchema.Patch patch = Settings.FLOW.patch(Map.of("timezone", "UTC", "flowIntentMappingOrder", "attached"),
                Set.of());
        // then
        assertThat(patch.problems()).containsOnlyKeys("timezone");
        assertThat(patch.changes()).containsOnly(Map.entry("flowIntentMappingOrder", "attached"));
    }
}
