package ai.convo.contract.state;

import java.util.List;

/**
 * A state after a change (PATCH, addintent, removeintent, or the deletion of an intent it named): its full new
 * state, which fields changed, and who changed it when. Demoting the previous default state is a separate
 * {@link DefaultStateChangedEvent} of the same command.
 */
public record StateUpdatedEvent(
        String flowId,
        String projectId,
        String organisationId,
        String stateId,
        List<String> changedFields,
        String name,
        String type,
        boolean isDefault,
        List<String> intentIds,
        String changedBy,
        long changedAt) {
}
