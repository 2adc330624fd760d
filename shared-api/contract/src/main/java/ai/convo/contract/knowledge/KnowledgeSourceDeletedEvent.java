package ai.convo.contract.knowledge;

public record KnowledgeSourceDeletedEvent(
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
