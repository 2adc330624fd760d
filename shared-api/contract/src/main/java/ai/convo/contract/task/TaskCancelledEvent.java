package ai.convo.contract.task;

/** The task ended {@code cancelled}. */
public record TaskCancelledEvent(
        String taskId,
        String projectId,
        String organisationId,
        long cancelledAt) {
}
