package ai.convo.contract.identity;

/**
 * A password sign-in of the user failed. {@code failures}: in a row, this one included; {@code lockedUntil}: epoch
 * millis until which the user's e-mail is refused (0: not locked). {@code location}: the client's address as the
 * gateway saw it. Not of an aggregate: every replica of every service signs users in.
 */
public record LoginFailedEvent(
        String userId,
        String organisationId,
        int failures,
        long lockedUntil,
        String location,
        long occurredAt) {
}
