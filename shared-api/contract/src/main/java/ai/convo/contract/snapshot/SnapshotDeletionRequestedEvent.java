package ai.convo.contract.snapshot;

/** A snapshot is being deleted by task {@code taskId}; it keeps its slot until the deletion is done. */
public record SnapshotDeletionRequestedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        String taskId,
        String requestedBy,
        long requestedAt) {
}
