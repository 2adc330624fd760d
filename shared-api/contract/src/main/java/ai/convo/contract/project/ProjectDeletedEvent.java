package ai.convo.contract.project;

public record ProjectDeletedEvent(String projectId, String organisationId, String deletedBy, long deletedAt) {
}
