package ai.convo.contract.snapshot;

/** Limits of snapshots, shared by the controller's body checks and the registry's rules. */
public final class SnapshotLimits {
    public static final int MAX_PER_PROJECT = 10;
    public static final int MAX_NAME_LENGTH = 200;
    public static final int MAX_DESCRIPTION_LENGTH = 1000;

    private SnapshotLimits() {
    }
}
