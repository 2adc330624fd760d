package ai.convo.contract.flow;

/**
 * A snapshot's restore brought back the flow's last training in one locale as the snapshot pinned it: the model
 * {@code modelId}, derived from the training set {@code trainingSetHash} (equal to the restored intents' set, or the
 * restore does not pin it), in {@code mode}. It stands for a {@link FlowIntentsTrainedEvent} without training: the
 * flow's last trained model in the locale is this one from here on.
 */
public record FlowIntentsTrainingRestoredEvent(
        String flowId,
        String projectId,
        String organisationId,
        String localeId,
        String mode,
        String modelId,
        String trainingSetHash,
        String requestedBy,
        long restoredAt) {
}
