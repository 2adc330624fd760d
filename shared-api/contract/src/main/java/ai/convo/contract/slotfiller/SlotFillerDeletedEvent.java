package ai.convo.contract.slotfiller;

public record SlotFillerDeletedEvent(
        String slotFillerId,
        String flowId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
