package ai.convo.contract.function;

public record FunctionDeletedEvent(
        String functionId,
        String projectId,
        String organisationId,
        String deletedBy,
        long deletedAt) {
}
