package ai.convo.command.project;

import ai.convo.contract.project.ProjectId;
import ai.convo.command.web.Absent;
import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.project.ProjectUpdatedEvent;
import java.util.List;
import java.util.Optional;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which projects exist and whose they are, for commands that create things inside a project.
 * Kept in the same transaction as the project's events.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
public class ProjectLookup {

    private final JdbcTemplate jdbc;

    public ProjectLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Throws 404 unless the project exists and belongs to the actor's organisation. */
    public void requireVisible(String projectId, Actor actor) {
        List<String> owner = jdbc.queryForList("SELECT organisation_id FROM cmd_project_lookup WHERE project_id = ?",
                String.class, projectId);
        if (owner.isEmpty() || !owner.get(0).equals(actor.organisationId())) {
            throw Absent.of(ProjectId.class, projectId);
        }
    }

    /** The id of a project of this organisation with this name, ignoring case, if there is one. */
    public Optional<String> projectNamed(String organisationId, String name) {
        return jdbc.queryForList("SELECT project_id FROM cmd_project_lookup WHERE organisation_id = ? "
                + "AND lower(name) = lower(?) ORDER BY project_id LIMIT 1", String.class, organisationId, name)
                .stream().findFirst();
    }

    @EventHandler
    void on(ProjectCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_project_lookup (project_id, organisation_id, name) VALUES (?, ?, ?)",
                event.projectId(), event.organisationId(), event.name());
    }

    @EventHandler
    void on(ProjectUpdatedEvent event) {
        jdbc.update("UPDATE cmd_project_lookup SET name = ? WHERE project_id = ?", event.name(), event.projectId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_project_lookup WHERE project_id = ?", event.projectId());
    }
}
