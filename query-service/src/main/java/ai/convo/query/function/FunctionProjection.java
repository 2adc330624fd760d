package ai.convo.query.function;

import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The function read model; plain code that a test can feed events. It keeps which projects are live, so that
 * deleting a project removes its functions for good.
 */
@Component
@ProcessingGroup(FunctionProjection.GROUP)
public class FunctionProjection {

    public static final String GROUP = "functions";

    private final BatchingJdbcTemplate jdbc;

    public FunctionProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Marks the project live, so that its functions can be projected. */
    @EventHandler
    public void on(ProjectCreatedEvent event) {
        jdbc.write("INSERT INTO function_project (project_id) VALUES (?) ON CONFLICT (project_id) DO NOTHING",
                event.projectId());
    }

    /**
     * Only into a live project. A function created while its project was being deleted can commit after the
     * deletion; it must not reappear as an orphan row.
     */
    @EventHandler
    public void on(FunctionCreatedEvent event) {
        jdbc.write("INSERT INTO function_view (id, project_id, organisation_id, reference_id, name, code, is_disabled, "
                        + "created_at, last_changed, created_by, last_changed_by) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM function_project WHERE project_id = ?) "
                        + "ON CONFLICT (id) DO NOTHING", event.functionId(), event.projectId(), event.organisationId(),
                event.referenceId(), event.name(), event.code(), event.disabled(), event.createdAt(), event.createdAt(),
                event.createdBy(), event.createdBy(), event.projectId());
    }

    @EventHandler
    public void on(FunctionUpdatedEvent event) {
        jdbc.write("UPDATE function_view SET name = ?, code = ?, is_disabled = ?, last_changed = ?, last_changed_by = ? "
                        + "WHERE id = ?", event.name(), event.code(), event.isDisabled(), event.changedAt(),
                event.changedBy(), event.functionId());
    }

    @EventHandler
    public void on(FunctionDeletedEvent event) {
        jdbc.write("DELETE FROM function_view WHERE id = ?", event.functionId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM function_view WHERE project_id = ?", event.projectId());
        jdbc.write("DELETE FROM function_project WHERE project_id = ?", event.projectId());
    }
}
