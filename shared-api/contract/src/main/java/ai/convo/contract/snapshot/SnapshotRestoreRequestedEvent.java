package ai.convo.contract.snapshot;

/** A restore of the snapshot into {@code targetProjectId} (the same organisation) was accepted as task {@code taskId}. */
public record SnapshotRestoreRequestedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        String targetProjectId,
        String taskId,
        String requestedBy,
        long requestedAt) {
}
