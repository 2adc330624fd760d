package ai.convo.contract.slotfiller;

/**
 * What a slot filler is, as the official client sends it: its name and type, the pattern of a {@code regex} one,
 * the slot of a {@code slot} one (null for every other type), and where a found value goes.
 */
public record SlotFillerSettings(
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
        String resultLocation) {
}
