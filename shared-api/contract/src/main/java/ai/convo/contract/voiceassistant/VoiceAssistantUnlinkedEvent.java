package ai.convo.contract.voiceassistant;

/**
 * A link ended and its key was destroyed in the same transaction, so its sealed tokens can never be opened again.
 * {@code reason} is {@link #UNLINKED} (the user deleted it) or {@link #REPLACED} (the user linked anew).
 */
public record VoiceAssistantUnlinkedEvent(
        String accountId,
        String voiceAssistant,
        String userId,
        String organisationId,
        String linkId,
        String reason,
        String unlinkedBy,
        long unlinkedAt) {

    public static final String UNLINKED = "unlinked";
    public static final String REPLACED = "replaced";
}
