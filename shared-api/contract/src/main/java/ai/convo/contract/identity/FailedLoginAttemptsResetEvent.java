package ai.convo.contract.identity;

/** An administrator forgot the user's failed sign-ins, which lifts a lock. */
public record FailedLoginAttemptsResetEvent(
        String userId,
        String organisationId,
        String changedBy,
        long changedAt) {
}
