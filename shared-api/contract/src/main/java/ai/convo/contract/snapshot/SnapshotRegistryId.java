package ai.convo.contract.snapshot;

import ai.convo.contract.project.ProjectId;

/**
 * The aggregate that holds a project's snapshots (at most {@link SnapshotLimits#MAX_PER_PROJECT}). Its identifier is
 * derived from the project's, with a prefix, because the project aggregate already owns the bare project id's stream.
 */
public record SnapshotRegistryId(ProjectId projectId) {
    public static SnapshotRegistryId of(String projectId) {
        return new SnapshotRegistryId(ProjectId.of(projectId));
    }

    @Override
    public String toString() {
        return "snapshots-" + projectId.value();
    }
}
