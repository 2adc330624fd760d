package ai.convo.contract.identity;

/** The user can no longer sign in; their keys, tokens and memberships stop working with it. */
public record UserDeletedEvent(String userId, String organisationId, String deletedBy, long deletedAt) {
}
