package ai.convo.contract.task;

/** Attempt {@code attempt} of a task started on runner {@code runnerId}; status {@code active}, progress from 0. */
public record TaskStartedEvent(
        String taskId,
        String projectId,
        String organisationId,
        String runnerId,
        int attempt,
        long startedAt) {
}
