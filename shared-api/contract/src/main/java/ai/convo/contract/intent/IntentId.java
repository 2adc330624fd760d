package ai.convo.contract.intent;

import ai.convo.contract.common.Ids;

/** Id of a Intent; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record IntentId(String value) {
    public IntentId {
        Ids.require("intentId", value);
    }

    public static IntentId of(String value) {
        return new IntentId(value);
    }

    public static IntentId generate() {
        return new IntentId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
