package ai.convo.contract.function;

import ai.convo.contract.common.Ids;

/** Id of a Function; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record FunctionId(String value) {
    public FunctionId {
        Ids.require("functionId", value);
    }

    public static FunctionId of(String value) {
        return new FunctionId(value);
    }

    public static FunctionId generate() {
        return new FunctionId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
