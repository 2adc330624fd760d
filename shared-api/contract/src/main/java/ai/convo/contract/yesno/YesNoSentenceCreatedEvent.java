package ai.convo.contract.yesno;

/** A sentence of a yes/no intent was created. */
public record YesNoSentenceCreatedEvent(
        String yesNoIntentId,
        String sentenceId,
        String localeId,
        String projectId,
        String organisationId,
        String text,
        String changedBy,
        long changedAt) {
}
