package ai.convo.contract.voiceassistant;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A link as the API shows it: the official client's shape ({@code organisationId, userId, accessToken,
 * refreshToken}) plus the link's meta, but the tokens always as {@link #MASK}: the server keeps them sealed and no
 * reader has their key. A link is never changed, only replaced by a new one, so lastChanged is its creation.
 */
public record VoiceAssistantLinkRecord(
        String linkId,
        String userId,
        String organisationId,
        String voiceAssistant,
        long createdAt,
        String createdBy) {

    /** Amazon's tokens are a few hundred characters; anything beyond this is not a token. */
    public static final int MAX_TOKEN_LENGTH = 4_096;
    /** What the API shows in place of either token; the same for every link, so it reveals nothing. */
    public static final String MASK = "********";

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", linkId);
        wire.put("userId", userId);
        wire.put("organisationId", organisationId);
        wire.put("voiceAssistant", voiceAssistant);
        wire.put("accessToken", MASK);
        wire.put("refreshToken", MASK);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", createdAt);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", createdBy);
        return wire;
    }
}
