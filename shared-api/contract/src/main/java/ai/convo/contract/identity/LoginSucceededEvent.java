package ai.convo.contract.identity;

/**
 * A password sign-in of the user succeeded (recorded when it ends failures, else at most once per interval: scripts
 * that send Basic credentials with every request would otherwise fill the log).
 */
public record LoginSucceededEvent(
        String userId,
        String organisationId,
        String location,
        long occurredAt) {
}
