package ai.convo.query.flow;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowSettingsUpdatedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** The flow read model; plain code that a test can feed events. */
@Component
@ProcessingGroup(FlowProjection.GROUP)
public class FlowProjection {

    public static final String GROUP = "flows";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final BatchingJdbcTemplate jdbc;

    public FlowProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(FlowCreatedEvent event) {
        jdbc.write("INSERT INTO flow_view (id, project_id, organisation_id, reference_id, name, description, "
                        + "created_at, last_changed, created_by, last_changed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (id) DO NOTHING",
                event.flowId(), event.projectId(), event.organisationId(), event.referenceId(), event.name(),
                event.description() == null ? "" : event.description(), event.createdAt(), event.createdAt(),
                event.createdBy(), event.createdBy());
    }

    @EventHandler
    public void on(FlowUpdatedEvent event) {
        jdbc.write("UPDATE flow_view SET name = ?, description = ?, last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.name(), event.description() == null ? "" : event.description(), event.changedAt(),
                event.changedBy(), event.flowId());
    }

    /** The changed settings go over the stored ones (flat: dotted path to value). */
    @EventHandler
    public void on(FlowSettingsUpdatedEvent event) {
        jdbc.write("UPDATE flow_view SET settings = settings || ?::jsonb, locale_settings = locale_settings || ?::jsonb, "
                        + "settings_changed_at = ?, settings_changed_by = ? WHERE id = ?",
                JSON.writeValueAsString(event.changed()), JSON.writeValueAsString(event.localeSettings()),
                event.changedAt(), event.changedBy(), event.flowId());
    }

    @EventHandler
    public void on(FlowDeletedEvent event) {
        jdbc.write("DELETE FROM flow_view WHERE id = ?", event.flowId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM flow_view WHERE project_id = ?", event.projectId());
    }
}
