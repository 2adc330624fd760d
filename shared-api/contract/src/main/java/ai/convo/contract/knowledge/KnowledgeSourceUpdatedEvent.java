package ai.convo.contract.knowledge;

import java.util.List;
import java.util.Map;

/** A source after a client's PATCH: its full new state, which fields changed, and who changed it when. */
public record KnowledgeSourceUpdatedEvent(
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String description,
        String status,
        int chunkCount,
        List<String> tags,
        Map<String, Object> data,
        String changedBy,
        long changedAt) {
}
