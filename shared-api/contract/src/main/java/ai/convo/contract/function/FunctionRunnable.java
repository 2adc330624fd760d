package ai.convo.contract.function;

/** What triggering needs of a function that may run now: its project and its current code. */
public record FunctionRunnable(String projectId, String code) {
}
