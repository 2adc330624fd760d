package ai.convo.contract.knowledge;

import java.util.Map;

/**
 * A new chunk of a source, by a client or by the source's ingestion (then {@code createdBy} is who uploaded it).
 * {@code sourceChunkCount} is the source's chunk count with this chunk, so a reader sets it rather than counts.
 */
public record KnowledgeChunkCreatedEvent(
        String chunkId,
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        String referenceId,
        int order,
        String text,
        boolean disabled,
        Map<String, Object> data,
        int sourceChunkCount,
        String createdBy,
        long createdAt) {
}
