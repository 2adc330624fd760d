package ai.convo.contract.voiceassistant;

/**
 * A token encrypted with its link's own key (AES-256-GCM): base64 of the 12-byte nonce and of the ciphertext with
 * its tag. Without the key, which lives outside the event log and is destroyed on unlink, it is noise.
 */
public record SealedToken(String nonce, String ciphertext) {
}
