package ai.convo.command.intent;

import ai.convo.contract.intent.IntentRecord;
import java.util.Map;

/**
 * What an intent command answers: the record, its project, and how many sentences it has per locale, from
 * which the web layer derives the answer's localeReference.
 */
record IntentResult(IntentRecord record, String projectId, Map<String, Long> sentencesPerLocale) {
}
