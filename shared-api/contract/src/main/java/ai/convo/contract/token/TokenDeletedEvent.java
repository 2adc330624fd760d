package ai.convo.contract.token;

public record TokenDeletedEvent(
        String tokenId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
