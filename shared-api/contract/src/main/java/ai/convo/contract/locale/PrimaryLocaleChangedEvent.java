package ai.convo.contract.locale;

/** The project's primary locale moved; the previous one is no longer primary. */
public record PrimaryLocaleChangedEvent(
        String projectId,
        String organisationId,
        String previousPrimaryLocaleId,
        String primaryLocaleId,
        String changedBy,
        long changedAt) {
}
