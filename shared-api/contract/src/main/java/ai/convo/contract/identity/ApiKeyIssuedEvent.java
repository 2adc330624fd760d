package ai.convo.contract.identity;

/** keyHash is the SHA-256 of a high-entropy secret; the secret itself is shown once and never stored. */
public record ApiKeyIssuedEvent(
        String userId,
        String organisationId,
        String apiKeyId,
        String label,
        String keyHash,
        long createdAt) {
}
