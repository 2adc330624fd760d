package ai.convo.contract.identity;

/** A user's name, e-mail or disabled state as they are after the change. */
public record UserChangedEvent(
        String userId,
        String organisationId,
        String name,
        String email,
        boolean disabled,
        String changedBy,
        long changedAt) {
}
