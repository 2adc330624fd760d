package ai.convo.contract.identity;

/** An organisation-wide role (the client's name for it) granted to a user. */
public record UserRoleAddedEvent(String userId, String organisationId, String role, String addedBy, long addedAt) {
}
