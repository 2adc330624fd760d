package ai.convo.contract.function;

public record FunctionInstanceStartedEvent(
        String functionInstanceId,
        String functionId,
        String projectId,
        String organisationId,
        String runnerId,
        long startedAt) {
}
