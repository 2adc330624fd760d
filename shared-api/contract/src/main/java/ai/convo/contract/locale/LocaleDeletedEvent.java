package ai.convo.contract.locale;

public record LocaleDeletedEvent(
        String projectId,
        String organisationId,
        String localeId,
        String deletedBy,
        long deletedAt) {
}
