package ai.convo.contract.function;

import java.util.Map;

/**
 * What the runner runs. {@code wasActive}: the instance had already started on a runner that stopped responding; the
 * code may have had effects, so it is not run again.
 */
public record FunctionInstanceRun(String functionId, String code, Map<String, Object> parameters, boolean wasActive) {
}
