package ai.convo.contract.knowledge;

/** The store is gone, and with it every source it held. */
public record KnowledgeStoreDeletedEvent(
        String storeId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
