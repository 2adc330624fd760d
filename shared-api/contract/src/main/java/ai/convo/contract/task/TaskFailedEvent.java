package ai.convo.contract.task;

/** The task ended {@code error}; {@code failReason} says why in words a user can read. */
public record TaskFailedEvent(
        String taskId,
        String projectId,
        String organisationId,
        String failReason,
        long failedAt) {
}
