package ai.convo.contract.flow;

public record FlowCreatedEvent(
        String flowId,
        String projectId,
        String organisationId,
        String referenceId,
        String name,
        String description,
        String createdBy,
        long createdAt) {
}
