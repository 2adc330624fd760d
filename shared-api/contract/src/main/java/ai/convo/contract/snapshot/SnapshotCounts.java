package ai.convo.contract.snapshot;

/** How much a snapshot holds, for the record and for a restore's progress. */
public record SnapshotCounts(int locales, int tokens, int functions, int flows, int states, int intents, int sentences) {
}
