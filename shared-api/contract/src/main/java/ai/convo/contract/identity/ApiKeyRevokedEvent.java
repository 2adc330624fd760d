package ai.convo.contract.identity;

public record ApiKeyRevokedEvent(String userId, String organisationId, String apiKeyId, long revokedAt) {
}
