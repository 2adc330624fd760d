package ai.convo.contract.snapshot;

/**
 * A snapshot exists, immutable: its meta only. The content (tokens, functions, flows with states, intents with
 * sentences, locales) is stored once, beside the event, in the command side's snapshot content table.
 * {@code hash} is the SHA-256 of that canonical content. {@code createdBy} is who asked for it; {@code createdAt}
 * the moment its content was captured.
 */
public record SnapshotCreatedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        String name,
        String description,
        String hash,
        SnapshotCounts counts,
        String createdBy,
        long createdAt) {
}
