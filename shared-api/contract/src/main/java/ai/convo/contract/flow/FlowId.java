package ai.convo.contract.flow;

import ai.convo.contract.common.Ids;

/** Id of a Flow; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record FlowId(String value) {
    public FlowId {
        Ids.require("flowId", value);
    }

    public static FlowId of(String value) {
        return new FlowId(value);
    }

    public static FlowId generate() {
        return new FlowId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
