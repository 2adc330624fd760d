package ai.convo.contract.locale;

import java.util.List;

/**
 * A locale after a PATCH: its full new state, which fields the PATCH changed, and who changed it when.
 * Demoting the previous primary locale is a separate {@link PrimaryLocaleChangedEvent} of the same command.
 */
public record LocaleUpdatedEvent(
        String projectId,
        String organisationId,
        String localeId,
        List<String> changedFields,
        String name,
        String nluLanguage,
        boolean primary,
        String fallbackLocaleReference,
        String changedBy,
        long changedAt) {
}
