package ai.convo.contract.project;

import ai.convo.contract.common.Ids;

/** Id of a Project; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record ProjectId(String value) {
    public ProjectId {
        Ids.require("projectId", value);
    }

    public static ProjectId of(String value) {
        return new ProjectId(value);
    }

    public static ProjectId generate() {
        return new ProjectId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
