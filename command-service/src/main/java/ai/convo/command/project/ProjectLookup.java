package ai.convo.command.project;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
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
            throw DomainException.notFound("Project " + projectId + " does not exist.");
        }
    }

    @EventHandler
    void on(ProjectCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_project_lookup (project_id, organisation_id) VALUES (?, ?)",
                event.projectId(), event.organisationId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_project_lookup WHERE project_id = ?", event.projectId());
    }
}
