package ai.convo.contract.function;

public record FunctionInstanceFailedEvent(
        String functionInstanceId,
        String functionId,
        String projectId,
        String organisationId,
        String error,
        long failedAt) {
}
