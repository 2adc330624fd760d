package ai.convo.contract.function;

public record FunctionInstanceStoppedEvent(
        String functionInstanceId,
        String functionId,
        String projectId,
        String organisationId,
        String stoppedBy,
        long stoppedAt) {
}
