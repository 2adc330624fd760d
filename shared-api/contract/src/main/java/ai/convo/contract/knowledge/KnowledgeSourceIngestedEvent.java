package ai.convo.contract.knowledge;

/** The ingestion step succeeded: the source is {@code ready} with {@code chunkCount} chunks. */
public record KnowledgeSourceIngestedEvent(
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        int chunkCount,
        long at) {
}
