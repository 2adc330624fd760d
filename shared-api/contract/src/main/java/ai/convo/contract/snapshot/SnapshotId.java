package ai.convo.contract.snapshot;

import ai.convo.contract.common.Ids;

/** Id of a Snapshot; validates itself. */
public record SnapshotId(String value) {
    public SnapshotId {
        Ids.require("snapshotId", value);
    }

    public static SnapshotId of(String value) {
        return new SnapshotId(value);
    }

    public static SnapshotId generate() {
        return new SnapshotId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
