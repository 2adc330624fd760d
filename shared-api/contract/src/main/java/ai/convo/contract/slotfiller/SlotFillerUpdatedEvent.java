package ai.convo.contract.slotfiller;

import java.util.List;

/** A slot filler after a PATCH: its full new state, which fields (the API's names) changed, and who changed it when. */
public record SlotFillerUpdatedEvent(
        String slotFillerId,
        String flowId,
        String projectId,
        String organisationId,
        List<String> changedFields,
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
        String changedBy,
        long changedAt) {
}
