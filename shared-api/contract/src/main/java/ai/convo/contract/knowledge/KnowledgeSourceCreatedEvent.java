package ai.convo.contract.knowledge;

import java.util.List;
import java.util.Map;

/** A new source; {@code status} is {@code ingesting} for types that need ingestion, else {@code ready}. */
public record KnowledgeSourceCreatedEvent(
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        String referenceId,
        String name,
        String description,
        String type,
        String status,
        int chunkCount,
        List<String> tags,
        Map<String, Object> data,
        String createdBy,
        long createdAt) {
}
