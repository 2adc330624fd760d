package ai.convo.contract.member;

public record MemberRoleAddedEvent(String userId, String organisationId, String projectId, String role,
                                   String addedBy, long addedAt) {
}
