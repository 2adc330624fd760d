package ai.convo.contract.yesno;

/**
 * A locale's yes/no model was trained, by the user who started the task, from its yes/no intents as they were at
 * {@code position}. Kept by the locale's yes intent ({@code yesNoIntentId}); the model bytes are stored under
 * {@code modelId} (content-addressed, re-derivable).
 */
public record YesNoIntentsTrainedEvent(
        String yesNoIntentId,
        String localeId,
        String projectId,
        String organisationId,
        String taskId,
        String modelId,
        String trainingSetHash,
        long position,
        int sentences,
        String trainedBy,
        long trainedAt) {
}
