package ai.convo.contract.yesno;

import java.util.List;

/**
 * A locale's yes, no or reject intent was first written: it starts from the built-in sentences of the locale's
 * nluLanguage then ({@link YesNoSeeds}), held here so later changes to the built-ins never change a stored intent.
 */
public record YesNoIntentSeededEvent(
        String yesNoIntentId,
        String localeId,
        String projectId,
        String organisationId,
        String kind,
        String nluLanguage,
        List<YesNoSentence> sentences,
        String seededBy,
        long seededAt) {
}
