package ai.convo.contract.snapshot;

/**
 * One resource a snapshot holds, as the client's indexResourcesInSnapshot lists it: its type (flow, locale, flowState),
 * the {@code _id} it had where the snapshot was taken, its referenceId and its name.
 */
public record SnapshotResource(String type, String id, String referenceId, String name) {
}
