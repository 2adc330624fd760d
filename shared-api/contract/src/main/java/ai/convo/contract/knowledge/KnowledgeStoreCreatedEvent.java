package ai.convo.contract.knowledge;

public record KnowledgeStoreCreatedEvent(
        String storeId,
        String projectId,
        String organisationId,
        String referenceId,
        String name,
        String description,
        String language,
        String createdBy,
        long createdAt) {
}
