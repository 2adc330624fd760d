package ai.convo.contract.task;

/** A user asked to cancel the task; status {@code cancelling} until the runner confirms. */
public record TaskCancelRequestedEvent(
        String taskId,
        String projectId,
        String organisationId,
        String requestedBy,
        long requestedAt) {
}
