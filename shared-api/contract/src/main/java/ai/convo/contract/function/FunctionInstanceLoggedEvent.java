package ai.convo.contract.function;

import java.util.List;

public record FunctionInstanceLoggedEvent(
        String functionInstanceId,
        String functionId,
        String projectId,
        String organisationId,
        List<String> lines,
        long loggedAt) {
}
