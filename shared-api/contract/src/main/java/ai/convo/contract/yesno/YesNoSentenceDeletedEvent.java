package ai.convo.contract.yesno;

/** A sentence of a yes/no intent was deleted. */
public record YesNoSentenceDeletedEvent(
        String yesNoIntentId,
        String sentenceId,
        String localeId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
