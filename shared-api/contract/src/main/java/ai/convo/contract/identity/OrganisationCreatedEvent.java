package ai.convo.contract.identity;

public record OrganisationCreatedEvent(String organisationId, String name, String createdBy, long createdAt) {
}
