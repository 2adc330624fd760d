package ai.convo.contract.knowledge;

import java.util.List;
import java.util.Map;

/** A chunk after a PATCH: its full new state, which fields changed, and who changed it when. */
public record KnowledgeChunkUpdatedEvent(
        String chunkId,
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        int order,
        String text,
        boolean disabled,
        Map<String, Object> data,
        String changedBy,
        long changedAt) {
}
