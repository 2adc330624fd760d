package ai.convo.contract.token;

/** type is the wire code (e.g. "flow-output"), so stored events do not depend on enum constant names. */
public record TokenCreatedEvent(
        String tokenId,
        String projectId,
        String organisationId,
        String referenceId,
        String label,
        String type,
        String script,
        String createdBy,
        long createdAt) {
}
