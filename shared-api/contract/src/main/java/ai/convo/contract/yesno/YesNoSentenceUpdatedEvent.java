package ai.convo.contract.yesno;

/** A sentence of a yes/no intent was updated. */
public record YesNoSentenceUpdatedEvent(
        String yesNoIntentId,
        String sentenceId,
        String localeId,
        String projectId,
        String organisationId,
        String text,
        String changedBy,
        long changedAt) {
}
