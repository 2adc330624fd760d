package ai.convo.contract.state;

/**
 * State {@code defaultStateId} became the flow's default; the previous default ({@code previousDefaultStateId},
 * null when the flow had none) no longer is. A flow has at most one default state.
 */
public record DefaultStateChangedEvent(
        String flowId,
        String projectId,
        String organisationId,
        String previousDefaultStateId,
        String defaultStateId,
        String changedBy,
        long changedAt) {
}
