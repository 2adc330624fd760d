package ai.convo.contract.member;

import java.util.List;

/** allowedLocales: the locale ids the member may change; null for every locale of the project. */
public record MemberLocalesChangedEvent(String userId, String organisationId, String projectId,
                                        List<String> allowedLocales, String changedBy, long changedAt) {
}
