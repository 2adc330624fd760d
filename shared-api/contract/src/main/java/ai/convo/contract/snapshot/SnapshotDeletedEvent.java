package ai.convo.contract.snapshot;

/** A snapshot and its content are gone; {@code deletedBy} is who asked for the deletion. */
public record SnapshotDeletedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
