package ai.convo.contract.function;

public record FunctionInstanceFinishedEvent(
        String functionInstanceId,
        String functionId,
        String projectId,
        String organisationId,
        long finishedAt) {
}
