package ai.convo.contract.flow;

import java.util.List;

/** A flow after a PATCH: its full new state, which fields the PATCH changed, and who changed it when. */
public record FlowUpdatedEvent(
        String flowId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String description,
        String changedBy,
        long changedAt) {
}
