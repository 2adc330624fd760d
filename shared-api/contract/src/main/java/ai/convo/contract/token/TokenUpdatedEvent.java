package ai.convo.contract.token;

import java.util.List;

/** A Token after a PATCH: its full new state, which fields the PATCH changed, and who changed it when. */
public record TokenUpdatedEvent(
        String tokenId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String label,
        String type,
        String script,
        String changedBy,
        long changedAt) {
}
