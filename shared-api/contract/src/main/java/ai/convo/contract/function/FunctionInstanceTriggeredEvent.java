package ai.convo.contract.function;

import java.util.Map;

public record FunctionInstanceTriggeredEvent(
        String functionInstanceId,
        String functionId,
        String projectId,
        String organisationId,
        String trigger,
        Map<String, Object> parameters,
        String code,
        String taskId,
        String triggeredBy,
        long triggeredAt) {
}
