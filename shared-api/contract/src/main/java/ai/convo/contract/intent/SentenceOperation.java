package ai.convo.contract.intent;

import ai.convo.contract.common.BatchOperations.Op;
import ai.convo.contract.locale.LocaleId;

/**
 * One operation of a sentence batch: create (a new id, text and locale), update (text, null to keep it; the locale
 * only as the sentence's own) or delete.
 */
public record SentenceOperation(Op op, SentenceId sentenceId, String text, LocaleId localeId) {
}
