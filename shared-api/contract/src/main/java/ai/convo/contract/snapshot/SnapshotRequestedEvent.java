package ai.convo.contract.snapshot;

/** A snapshot slot is taken; the snapshot is pending until its createSnapshot task completes or abandons it. */
public record SnapshotRequestedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        String taskId,
        String name,
        String description,
        String requestedBy,
        long requestedAt) {
}
