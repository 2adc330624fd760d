package ai.convo.contract.task;

import ai.convo.contract.common.Ids;

/** Id of a Task; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record TaskId(String value) {
    public TaskId {
        Ids.require("taskId", value);
    }

    public static TaskId of(String value) {
        return new TaskId(value);
    }

    public static TaskId generate() {
        return new TaskId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
