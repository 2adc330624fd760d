package ai.convo.contract.identity;

/** The password arrives already hashed with a slow hash; the clear password is never stored. */
public record UserRegisteredEvent(
        String userId,
        String organisationId,
        String email,
        String passwordHash,
        Role role,
        String createdBy,
        long createdAt) {
}
