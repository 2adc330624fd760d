package ai.convo.contract.project;

public record ProjectCreatedEvent(
        String projectId,
        String organisationId,
        String name,
        String color,
        String createdBy,
        long createdAt) {
}
