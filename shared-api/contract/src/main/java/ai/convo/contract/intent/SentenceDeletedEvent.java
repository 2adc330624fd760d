package ai.convo.contract.intent;

/** One sentence is gone. (Deleting an intent removes its sentences with the IntentDeletedEvent alone.) */
public record SentenceDeletedEvent(
        String sentenceId,
        String intentId,
        String flowId,
        String projectId,
        String organisationId,
        String localeId,
        String deletedBy,
        long deletedAt) {
}
