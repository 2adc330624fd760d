package ai.convo.contract.settings;

import ai.convo.contract.settings.SettingsSchema.Bool;
import ai.convo.contract.settings.SettingsSchema.Num;
import ai.convo.contract.settings.SettingsSchema.OneOf;
import ai.convo.contract.settings.SettingsSchema.Text;
import ai.convo.contract.settings.SettingsSchema.Words;
import java.time.ZoneId;
import java.util.Currency;
import java.util.List;
import java.util.Set;

/**
 * The project settings (the client's IAgentSettings_2_0) and flow settings (IFlowSettings_2_0) this server keeps,
 * with their defaults. Both share the NLU settings (ISharedSettings_2_0). A flow's per-locale settings are kept
 * beside these (they are a list keyed by locale, not a setting).
 */
public final class Settings {

    /** A read's own metadata: a client may send a read back as a PATCH, and these are then skipped. */
    public static final Set<String> METADATA = Set.of("_id", "createdAt", "lastChanged", "createdBy", "lastChangedBy");

    /** The generative AI use cases the client names (TGenerativeAIUseCases). */
    public static final List<String> GENERATIVE_AI_USE_CASES = List.of("nlu", "knowledgeSearch", "gptPromptNode",
            "gptConversation", "aiEnhancedOutputs", "sentimentAnalysis", "intentSentenceGeneration", "flowGeneration",
            "generateNodeOutput", "lexiconGeneration", "answerExtraction");

    private static final int ID_LENGTH = 100;

    private Settings() {
    }

    private static Text connection() {
        return new Text(ID_LENGTH, null, true, false, null, null);
    }

    private static void shared(SettingsSchema.Builder b) {
        b.leaf("positiveConfirmationWords", new Words(100, 100, List.of("yes", "yeah", "sure", "correct", "right")))
                .leaf("negativeConfirmationWords", new Words(100, 100, List.of("no", "nope", "wrong", "incorrect")))
                .leaf("intentThreshold.lower", new Num(0, 1, 0.4, false))
                .leaf("intentThreshold.upper", new Num(0, 1, 0.6, false));
        for (String slot : List.of("useDateSlots", "useNumberSlots", "useDurationSlots", "useTemperatureSlots",
                "useAgeSlots", "usePercentageSlots", "useEmailSlots", "useURLSlots", "useMoneySlots", "useDistanceSlots")) {
            b.leaf("systemSlots." + slot, new Bool(true));
        }
        b.leaf("learnNewExampleSentences", new Bool(false))
                .leaf("learnNewExampleSentencesThreshold", new Num(1, 1000, 3, true))
                .leaf("yesNoLogic", new OneOf(List.of("yesNoIntents", "yesNoIntentsWithRules", "confirmationWords"),
                        "yesNoIntents", false))
                .leaf("yesNoIntentThreshold", new Num(0, 1, 0.5, false));
    }

    /** The project's settings (readProjectSettings / updateProjectSettings). */
    public static final SettingsSchema PROJECT = SettingsSchema.of(b -> {
        shared(b);
        b.leaf("timezone", new Text(64, "UTC", false, false, Settings::isZone, "an IANA time zone such as Europe/Berlin"))
                .leaf("useCaseSensitiveIntentMapping", new Bool(false))
                .leaf("collectAnalytics", new Bool(true))
                .leaf("trackDataOnlyInputs", new Bool(false))
                .leaf("translationSettings.provider", new OneOf(List.of("microsoft", "google", "deepl", "none"), "none", false));
        for (String provider : List.of("microsoft", "google", "deepl")) {
            String at = "translationSettings.connections." + provider + ".";
            b.leaf(at + "connectionId", connection())
                    .leaf(at + "retries", new Num(0, 10, 1, true))
                    .leaf(at + "timeout", new Num(100, 60_000, 5_000, true))
                    .leaf(at + "cacheExpiry", new Num(0, 31_536_000, 86_400, true))
                    .leaf(at + "customBaseUrl", new Text(1_000, null, true, true, Settings::isHttpUrl,
                            "an absolute http(s) URL"));
        }
        b.leaf("audioPreviewSettings.provider", new OneOf(List.of("microsoft", "google", "aws"), null, true));
        for (String provider : List.of("microsoft", "google", "aws")) {
            b.leaf("audioPreviewSettings.connections." + provider + ".connectionId",
                    new Text(ID_LENGTH, "", false, false, null, null));
        }
        b.leaf("generativeAISettings.enabled", new Bool(false));
        for (String useCase : GENERATIVE_AI_USE_CASES) {
            String at = "generativeAISettings.useCasesSettings." + useCase + ".";
            b.leaf(at + "largeLanguageModelId", connection())
                    .leaf(at + "temperature", new Num(0, 1, 0.7, false));
        }
        b.leaf("currencySettings.currency", new Text(3, "USD", false, false, Settings::isCurrency,
                        "an ISO 4217 currency code such as EUR"))
                .leaf("knowledgeAISettings.fileExtractor", new OneOf(List.of("default", "legacy", "azure"), "default", false))
                .leaf("knowledgeAISettings.azureDIConnectionId", new Text(ID_LENGTH, null, true, true, null, null));
    });

    /** A flow's settings (readFlowSettings / updateFlowSettings), without its per-locale settings. */
    public static final SettingsSchema FLOW = SettingsSchema.of(b -> {
        shared(b);
        b.leaf("continueExecutionAfterAttachedFlow", new Bool(false))
                .leaf("continueExecutionAfterDefaultReply", new Bool(false))
                .leaf("continueExecutionAfterNegativeConfirmation", new Bool(false))
                .leaf("passDefaultRepliesIntoFlow", new Bool(false))
                .leaf("flowIntentMappingOrder", new OneOf(List.of("joint", "main", "attached"), "joint", false))
                .leaf("useAttachedFlowThresholds", new Bool(false))
                .leaf("useAttachedFlowContinueAfterDefaultReply", new Bool(false))
                .leaf("useAttachedFlowPassDefaultRepliesIntoFlow", new Bool(false))
                .leaf("implicitSlotParsing", new OneOf(List.of("disabled", "full", "system", "lexicon"), "disabled", false))
                .leaf("useAttachedFlowImplicitSlotParsing", new Bool(false))
                .leaf("lexiconSlotsWithSubMatches", new Bool(false))
                .leaf("useIntentDefaultRepliesAsExamples", new Bool(false));
    });

    /** The intent thresholds must not cross: a problem naming them, or null. */
    public static String thresholdProblem(SettingsSchema schema, java.util.Map<String, ?> stored) {
        double lower = ((Number) schema.value("intentThreshold.lower", stored)).doubleValue();
        double upper = ((Number) schema.value("intentThreshold.upper", stored)).doubleValue();
        return lower <= upper ? null : "intentThreshold.lower (" + lower + ") must not be above intentThreshold.upper ("
                + upper + ")";
    }

    private static boolean isZone(String zone) {
        return ZoneId.getAvailableZoneIds().contains(zone);
    }

    private static boolean isCurrency(String code) {
        try {
            return Currency.getInstance(code).getCurrencyCode().equals(code);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isHttpUrl(String url) {
        try {
            java.net.URI uri = new java.net.URI(url);
            return uri.isAbsolute() && uri.getHost() != null
                    && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
