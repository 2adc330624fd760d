package ai.convo.contract.member;

public record MemberRemovedEvent(String userId, String organisationId, String projectId, String removedBy,
                                 long removedAt) {
}
