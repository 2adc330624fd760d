package ai.convo.query.state;

import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The (deprecated) state read model. A state goes with its flow and its project; a deleted intent leaves every
 * state that named it (the write side also records that as a StateUpdatedEvent, which sets the same list).
 */
@Component
@ProcessingGroup(StateProjection.GROUP)
public class StateProjection {

    public static final String GROUP = "states";

    private final BatchingJdbcTemplate jdbc;

    public StateProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    private static String[] array(List<String> ids) {
        return ids == null ? new String[0] : ids.toArray(String[]::new);
    }

    @EventHandler
    public void on(StateCreatedEvent event) {
        jdbc.write("INSERT INTO state_view (id, flow_id, project_id, organisation_id, reference_id, name, type, "
                        + "is_default, intent_ids, created_at, last_changed, created_by, last_changed_by) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.stateId(), event.flowId(), event.projectId(), event.organisationId(), event.referenceId(),
                event.name(), event.type(), event.isDefault(), array(event.intentIds()), event.createdAt(),
                event.createdAt(), event.createdBy(), event.createdBy());
    }

    @EventHandler
    public void on(StateUpdatedEvent event) {
        jdbc.write("UPDATE state_view SET name = ?, type = ?, is_default = ?, intent_ids = ?, last_changed = ?, "
                        + "last_changed_by = ? WHERE id = ?", event.name(), event.type(), event.isDefault(),
                array(event.intentIds()), event.changedAt(), event.changedBy(), event.stateId());
    }

    @EventHandler
    public void on(DefaultStateChangedEvent event) {
        if (event.previousDefaultStateId() != null && !event.previousDefaultStateId().equals(event.defaultStateId())) {
            jdbc.write("UPDATE state_view SET is_default = false, last_changed = ?, last_changed_by = ? WHERE id = ?",
                    event.changedAt(), event.changedBy(), event.previousDefaultStateId());
        }
    }

    @EventHandler
    public void on(StateDeletedEvent event) {
        jdbc.write("DELETE FROM state_view WHERE id = ?", event.stateId());
    }

    @EventHandler
    public void on(IntentDeletedEvent event) {
        jdbc.write("UPDATE state_view SET intent_ids = array_remove(intent_ids, ?::text) "
                + "WHERE flow_id = ? AND intent_ids @> ARRAY[?::text]", event.intentId(), event.flowId(), event.intentId());
    }

    @EventHandler
    public void on(FlowDeletedEvent event) {
        jdbc.write("DELETE FROM state_view WHERE flow_id = ?", event.flowId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM state_view WHERE project_id = ?", event.projectId());
    }
}
