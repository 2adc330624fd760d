package ai.convo.contract.snapshot;

/** A pending snapshot was never completed (its task failed or was cancelled); its slot is free again. */
public record SnapshotAbandonedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        String reason,
        long abandonedAt) {
}
