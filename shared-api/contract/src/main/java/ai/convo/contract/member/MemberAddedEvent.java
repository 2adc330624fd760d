package ai.convo.contract.member;

import java.util.List;

/** A user of the organisation made a member of one of its projects, with these project-wide roles. */
public record MemberAddedEvent(String userId, String organisationId, String projectId, List<String> roles,
                               String addedBy, long addedAt) {
}
