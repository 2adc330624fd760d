package ai.convo.contract.function;

public record FunctionCreatedEvent(
        String functionId,
        String projectId,
        String organisationId,
        String referenceId,
        String name,
        String code,
        boolean disabled,
        String createdBy,
        long createdAt) {
}
