package ai.convo.contract.project;

import java.util.List;

/** A project after a PATCH: its full new name and color, which fields the PATCH changed, and who changed it when. */
public record ProjectUpdatedEvent(
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String color,
        String changedBy,
        long changedAt) {
}
