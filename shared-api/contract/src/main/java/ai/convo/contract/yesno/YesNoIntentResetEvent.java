package ai.convo.contract.yesno;

import java.util.List;

/**
 * A yes/no intent was deleted: a locale always has its three, so deleting one resets it to the built-in sentences
 * of the locale's nluLanguage then, no rules, enabled.
 */
public record YesNoIntentResetEvent(
        String yesNoIntentId,
        String localeId,
        String projectId,
        String organisationId,
        String nluLanguage,
        List<YesNoSentence> sentences,
        String resetBy,
        long resetAt) {
}
