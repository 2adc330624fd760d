package ai.convo.contract.flow;

/**
 * A flow's intents were trained in one locale: the model {@code modelId} was derived from the training set
 * {@code trainingSetHash} as the event log stood at {@code position} (the newest event the set was read from).
 * {@code mode} "full" also cross-validated ({@code accuracy}, {@code fScore} of the folds); "quick" leaves them
 * null. The model and its report are kept content-addressed under {@code modelId} (table {@code intent_model}).
 */
public record FlowIntentsTrainedEvent(
        String flowId,
        String projectId,
        String organisationId,
        String localeId,
        String taskId,
        String mode,
        String modelId,
        String trainingSetHash,
        long position,
        int intents,
        int sentences,
        Double accuracy,
        Double fScore,
        String requestedBy,
        long trainedAt) {
}
