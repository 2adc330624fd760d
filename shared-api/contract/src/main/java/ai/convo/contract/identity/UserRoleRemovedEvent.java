package ai.convo.contract.identity;

public record UserRoleRemovedEvent(String userId, String organisationId, String role, String removedBy,
                                   long removedAt) {
}
