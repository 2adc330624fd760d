package ai.convo.command.flow;

import ai.convo.contract.flow.FlowId;
import ai.convo.command.web.Absent;
import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Optional;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which flows exist, in which project and organisation, for commands on things inside a flow (states,
 * intents). Kept in the same transaction as the flow's events.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
public class FlowLookup {

    public record Flow(String flowId, String projectId, String organisationId) {
    }

    private final JdbcTemplate jdbc;

    public FlowLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The flow, or a 404 when it does not exist or belongs to another organisation. */
    public Flow requireVisible(String flowId, Actor actor) {
        List<Flow> found = jdbc.query("SELECT flow_id, project_id, organisation_id FROM cmd_flow_lookup WHERE flow_id = ?",
                (row, n) -> new Flow(row.getString(1), row.getString(2), row.getString(3)), flowId);
        if (found.isEmpty() || !found.get(0).organisationId().equals(actor.organisationId())) {
            throw Absent.of(FlowId.class, flowId);
        }
        return found.get(0);
    }

    /** The flow of the project with this referenceId. */
    public Optional<String> byReference(String projectId, String referenceId) {
        return jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ? AND reference_id = ?",
                String.class, projectId, referenceId).stream().findFirst();
    }

    @EventHandler
    void on(FlowCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_flow_lookup (flow_id, project_id, organisation_id, reference_id) "
                + "VALUES (?, ?, ?, ?)", event.flowId(), event.projectId(), event.organisationId(), event.referenceId());
    }

    @EventHandler
    void on(FlowDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_flow_lookup WHERE flow_id = ?", event.flowId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_flow_lookup WHERE project_id = ?", event.projectId());
    }
}
