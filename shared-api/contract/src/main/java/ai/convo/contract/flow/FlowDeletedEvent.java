package ai.convo.contract.flow;

/** A flow is gone, and with it its states, intents and their sentences. */
public record FlowDeletedEvent(String flowId, String projectId, String organisationId, String deletedBy, long deletedAt) {
}
