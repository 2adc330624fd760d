package ai.convo.contract.task;

/** The task ended {@code done}. */
public record TaskCompletedEvent(
        String taskId,
        String projectId,
        String organisationId,
        long completedAt) {
}
