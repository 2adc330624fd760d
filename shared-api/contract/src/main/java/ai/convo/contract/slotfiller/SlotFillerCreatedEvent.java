package ai.convo.contract.slotfiller;

public record SlotFillerCreatedEvent(
        String slotFillerId,
        String flowId,
        String projectId,
        String organisationId,
        String referenceId,
        String name,
        String type,
        String regex,
        String slot,
        boolean usePositiveOnly,
        boolean removeNegated,
        boolean storeResultInContext,
        String contextKey,
        boolean storeInContactProfile,
        String profileKey,
        boolean storeDetailedResults,
        boolean skipIfResultInContext,
        String additionalValidation,
        String resultLocation,
        String createdBy,
        long createdAt) {
}
