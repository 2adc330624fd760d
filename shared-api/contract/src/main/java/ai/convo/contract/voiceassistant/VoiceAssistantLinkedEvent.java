package ai.convo.contract.voiceassistant;

/**
 * A user linked their account on a voice assistant. The tokens are sealed with a key kept outside the log
 * ({@code cipher} names how); {@code linkId} names that key. Never add a field that holds a token in clear.
 */
public record VoiceAssistantLinkedEvent(
        String accountId,
        String voiceAssistant,
        String userId,
        String organisationId,
        String linkId,
        String cipher,
        SealedToken accessToken,
        SealedToken refreshToken,
        String linkedBy,
        long linkedAt) {
}
