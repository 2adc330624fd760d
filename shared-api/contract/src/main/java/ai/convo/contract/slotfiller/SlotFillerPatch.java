package ai.convo.contract.slotfiller;

/** The fields of a slot filler PATCH. A null means "leave unchanged". */
public record SlotFillerPatch(
        String name,
        String type,
        String regex,
        String slot,
        Boolean usePositiveOnly,
        Boolean removeNegated,
        Boolean storeResultInContext,
        String contextKey,
        Boolean storeInContactProfile,
        String profileKey,
        Boolean storeDetailedResults,
        Boolean skipIfResultInContext,
        String additionalValidation,
        String resultLocation) {
}
