package ai.convo.contract.identity;

/** That the password changed, and who changed it; the hash is never in the event. */
public record UserPasswordChangedEvent(String userId, String organisationId, String changedBy, long changedAt) {
}
