package ai.convo.contract.state;

public record StateDeletedEvent(
        String flowId,
        String projectId,
        String organisationId,
        String stateId,
        String deletedBy,
        long deletedAt) {
}
