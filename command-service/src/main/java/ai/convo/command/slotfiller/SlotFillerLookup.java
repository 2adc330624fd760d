package ai.convo.command.slotfiller;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which slot fillers live in which flow and project (cmd_slot_filler_lookup), kept in the same transaction as their
 * events: what a project's capture reads the slot fillers' streams by. A flow's deletion takes its slot fillers.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class SlotFillerLookup {

    private final JdbcTemplate jdbc;

    SlotFillerLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(SlotFillerCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_slot_filler_lookup (slot_filler_id, flow_id, project_id, organisation_id) "
                        + "VALUES (?, ?, ?, ?) ON CONFLICT (slot_filler_id) DO NOTHING",
                event.slotFillerId(), event.flowId(), event.projectId(), event.organisationId());
    }

    @EventHandler
    void on(SlotFillerDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_slot_filler_lookup WHERE slot_filler_id = ?", event.slotFillerId());
    }

    @EventHandler
    void on(FlowDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_slot_filler_lookup WHERE flow_id = ?", event.flowId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_slot_filler_lookup WHERE project_id = ?", event.projectId());
    }
}
