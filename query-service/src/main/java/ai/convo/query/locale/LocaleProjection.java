package ai.convo.query.locale;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/** The locale read model; plain code that a test can feed events. */
@Component
@ProcessingGroup("locales")
public class LocaleProjection {

    private final BatchingJdbcTemplate jdbc;

    public LocaleProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(LocaleCreatedEvent event) {
        jdbc.write("INSERT INTO locale_view (id, project_id, organisation_id, reference_id, name, nlu_language, "
                        + "is_primary, fallback_locale_reference, created_at, last_changed, created_by, last_changed_by) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.localeId(), event.projectId(), event.organisationId(), event.referenceId(), event.name(),
                event.nluLanguage(), event.primary(), event.fallbackLocaleReference(), event.createdAt(),
                event.createdAt(), event.createdBy(), event.createdBy());
    }

    @EventHandler
    public void on(LocaleUpdatedEvent event) {
        jdbc.write("UPDATE locale_view SET name = ?, nlu_language = ?, is_primary = ?, fallback_locale_reference = ?, "
                        + "last_changed = ?, last_changed_by = ? WHERE id = ?", event.name(), event.nluLanguage(),
                event.primary(), event.fallbackLocaleReference(), event.changedAt(), event.changedBy(), event.localeId());
    }

    @EventHandler
    public void on(PrimaryLocaleChangedEvent event) {
        if (event.previousPrimaryLocaleId() != null && !event.previousPrimaryLocaleId().equals(event.primaryLocaleId())) {
            jdbc.write("UPDATE locale_view SET is_primary = false, last_changed = ?, last_changed_by = ? WHERE id = ?",
                    event.changedAt(), event.changedBy(), event.previousPrimaryLocaleId());
        }
    }

    @EventHandler
    public void on(LocaleDeletedEvent event) {
        jdbc.write("DELETE FROM locale_view WHERE id = ?", event.localeId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM locale_view WHERE project_id = ?", event.projectId());
    }
}
