package ai.convo.contract.function;

import ai.convo.contract.common.Ids;

/** Id of one run of a Function; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record FunctionInstanceId(String value) {
    public FunctionInstanceId {
        Ids.require("functionInstanceId", value);
    }

    public static FunctionInstanceId of(String value) {
        return new FunctionInstanceId(value);
    }

    public static FunctionInstanceId generate() {
        return new FunctionInstanceId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
