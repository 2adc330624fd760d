package ai.convo.contract.voiceassistant;

import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Id of one user's account slot on one voice assistant: the aggregate every link and unlink of that user goes
 * through, so "one link per user" is decided in one place. Derived (not random) so that the caller alone
 * names it; it differs from the user id, which the user aggregate already uses.
 */
public record VoiceAssistantAccountId(String value) {
    public VoiceAssistantAccountId {
        Ids.require("voiceAssistantAccountId", value);
    }

    /** The first 24 hex characters of SHA-256("voice-assistant:" + code + ":" + userId). */
    public static VoiceAssistantAccountId of(VoiceAssistant assistant, String userId) {
        Ids.require("userId", userId);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("voice-assistant:" + assistant.code() + ":" + userId).getBytes(StandardCharsets.UTF_8));
            return new VoiceAssistantAccountId(HexFormat.of().formatHex(digest).substring(0, 24));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
