package ai.convo.contract.task;

import java.util.Map;

/**
 * A Task was created, status {@code queued}. {@code creatorRole} is the creator's role name, so the work can act as
 * its creator (a {@code TaskContext} gives the work an actor).
 */
public record TaskCreatedEvent(
        String taskId,
        String projectId,
        String organisationId,
        String type,
        Map<String, Object> parameters,
        String createdBy,
        String creatorRole,
        long createdAt) {
}
