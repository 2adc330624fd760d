package ai.convo.contract.intent;

/** An example sentence was added to an intent, in one locale of the flow's project. */
public record SentenceCreatedEvent(
        String sentenceId,
        String intentId,
        String flowId,
        String projectId,
        String organisationId,
        String localeId,
        String text,
        String createdBy,
        long createdAt) {
}
