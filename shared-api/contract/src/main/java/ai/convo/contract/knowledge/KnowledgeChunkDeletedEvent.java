package ai.convo.contract.knowledge;

/** A chunk removed from its source; {@code sourceChunkCount} is the source's chunk count without it. */
public record KnowledgeChunkDeletedEvent(
        String chunkId,
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        int sourceChunkCount,
        String deletedBy,
        long deletedAt) {
}
