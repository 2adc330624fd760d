package ai.convo.query.project;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.project.ProjectSettingsUpdatedEvent;
import ai.convo.contract.project.ProjectUpdatedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The project read model. Writes go through JDBC inside Axon's transaction, so a row and the processor's
 * token commit together: each event is applied exactly once, also across crashes.
 */
@Component
@ProcessingGroup("projects")
public class ProjectProjection {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final BatchingJdbcTemplate jdbc;

    public ProjectProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(ProjectCreatedEvent event) {
        jdbc.write("INSERT INTO project_view (id, organisation_id, name, color, primary_locale_reference, created_at, "
                        + "last_changed, created_by, last_changed_by) VALUES (?, ?, ?, ?, '', ?, ?, ?, ?) "
                        + "ON CONFLICT (id) DO NOTHING", event.projectId(), event.organisationId(), event.name(),
                event.color(), event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy());
    }

    /** The locale created with the project is its first primary locale. */
    @EventHandler
    public void on(LocaleCreatedEvent event) {
        if (event.primary()) {
            jdbc.write("UPDATE project_view SET primary_locale_reference = ? WHERE id = ? AND primary_locale_reference = ''",
                    event.localeId(), event.projectId());
        }
    }

    @EventHandler
    public void on(PrimaryLocaleChangedEvent event) {
        jdbc.write("UPDATE project_view SET primary_locale_reference = ?, last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.primaryLocaleId(), event.changedAt(), event.changedBy(), event.projectId());
    }

    @EventHandler
    public void on(ProjectUpdatedEvent event) {
        jdbc.write("UPDATE project_view SET name = ?, color = ?, last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.name(), event.color(), event.changedAt(), event.changedBy(), event.projectId());
    }

    /** The changed settings go over the stored ones (flat: dotted path to value). */
    @EventHandler
    public void on(ProjectSettingsUpdatedEvent event) {
        jdbc.write("UPDATE project_view SET settings = settings || ?::jsonb, settings_changed_at = ?, "
                        + "settings_changed_by = ? WHERE id = ?",
                JSON.writeValueAsString(event.changed()), event.changedAt(), event.changedBy(), event.projectId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM project_view WHERE id = ?", event.projectId());
    }
}
