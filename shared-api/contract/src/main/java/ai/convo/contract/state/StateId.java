package ai.convo.contract.state;

import ai.convo.contract.common.Ids;

/** Id of a (deprecated) State of a flow; validates itself. {@link #toString()} is the bare id. */
public record StateId(String value) {
    public StateId {
        Ids.require("stateId", value);
    }

    public static StateId of(String value) {
        return new StateId(value);
    }

    public static StateId generate() {
        return new StateId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
