package ai.convo.query.slotfiller;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * The slot filler read model; plain code that a test can feed events. It keeps which flows are live, so that a
 * flow's (or its project's) deletion removes the flow's slot fillers for good.
 */
@Component
@ProcessingGroup(SlotFillerProjection.GROUP)
public class SlotFillerProjection {

    public static final String GROUP = "slotfillers";

    private final BatchingJdbcTemplate jdbc;

    public SlotFillerProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(FlowCreatedEvent event) {
        jdbc.write("INSERT INTO slot_filler_flow (flow_id, project_id) VALUES (?, ?) ON CONFLICT (flow_id) DO NOTHING",
                event.flowId(), event.projectId());
    }

    /** Only into a live flow: one created as its flow was deleted must not reappear as an orphan row. */
    @EventHandler
    public void on(SlotFillerCreatedEvent e) {
        jdbc.write("INSERT INTO slot_filler_view (id, flow_id, project_id, organisation_id, reference_id, name, type, "
                        + "regex, slot, use_positive_only, remove_negated, store_result_in_context, context_key, "
                        + "store_in_contact_profile, profile_key, store_detailed_results, skip_if_result_in_context, "
                        + "additional_validation, result_location, created_at, last_changed, created_by, last_changed_by) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM slot_filler_flow WHERE flow_id = ?) ON CONFLICT (id) DO NOTHING",
                e.slotFillerId(), e.flowId(), e.projectId(), e.organisationId(), e.referenceId(), e.name(), e.type(),
                e.regex(), e.slot(), e.usePositiveOnly(), e.removeNegated(), e.storeResultInContext(), e.contextKey(),
                e.storeInContactProfile(), e.profileKey(), e.storeDetailedResults(), e.skipIfResultInContext(),
                e.additionalValidation(), e.resultLocation(), e.createdAt(), e.createdAt(), e.createdBy(),
                e.createdBy(), e.flowId());
    }

    @EventHandler
    public void on(SlotFillerUpdatedEvent e) {
        jdbc.write("UPDATE slot_filler_view SET name = ?, type = ?, regex = ?, slot = ?, use_positive_only = ?, "
                        + "remove_negated = ?, store_result_in_context = ?, context_key = ?, store_in_contact_profile = ?, "
                        + "profile_key = ?, store_detailed_results = ?, skip_if_result_in_context = ?, "
                        + "additional_validation = ?, result_location = ?, last_changed = ?, last_changed_by = ? "
                        + "WHERE id = ?", e.name(), e.type(), e.regex(), e.slot(), e.usePositiveOnly(),
                e.removeNegated(), e.storeResultInContext(), e.contextKey(), e.storeInContactProfile(),
                e.profileKey(), e.storeDetailedResults(), e.skipIfResultInContext(), e.additionalValidation(),
                e.resultLocation(), e.changedAt(), e.changedBy(), e.slotFillerId());
    }

    @EventHandler
    public void on(SlotFillerDeletedEvent event) {
        jdbc.write("DELETE FROM slot_filler_view WHERE id = ?", event.slotFillerId());
    }

    @EventHandler
    public void on(FlowDeletedEvent event) {
        jdbc.write("DELETE FROM slot_filler_view WHERE flow_id = ?", event.flowId());
        jdbc.write("DELETE FROM slot_filler_flow WHERE flow_id = ?", event.flowId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM slot_filler_view WHERE project_id = ?", event.projectId());
        jdbc.write("DELETE FROM slot_filler_flow WHERE project_id = ?", event.projectId());
    }
}
