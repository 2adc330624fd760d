package ai.convo.contract.member;

public record MemberRoleRemovedEvent(String userId, String organisationId, String projectId, String role,
                                     String removedBy, long removedAt) {
}
