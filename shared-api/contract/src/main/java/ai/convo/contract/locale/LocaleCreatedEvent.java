package ai.convo.contract.locale;

/** nluLanguage is the wire code (e.g. "en-US"), so stored events do not depend on enum constant names. */
public record LocaleCreatedEvent(
        String projectId,
        String organisationId,
        String localeId,
        String referenceId,
        String name,
        String nluLanguage,
        boolean primary,
        String fallbackLocaleReference,
        String createdBy,
        long createdAt) {
}
