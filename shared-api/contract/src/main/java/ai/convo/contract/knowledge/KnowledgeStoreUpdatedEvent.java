package ai.convo.contract.knowledge;

import java.util.List;

/** A store after a PATCH: its full new name and description, which fields changed, and who changed them when. */
public record KnowledgeStoreUpdatedEvent(
        String storeId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String description,
        String changedBy,
        long changedAt) {
}
