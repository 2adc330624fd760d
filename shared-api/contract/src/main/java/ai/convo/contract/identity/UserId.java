package ai.convo.contract.identity;

import ai.convo.contract.common.Ids;

/** Id of a User; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record UserId(String value) {
    public UserId {
        Ids.require("userId", value);
    }

    public static UserId of(String value) {
        return new UserId(value);
    }

    public static UserId generate() {
        return new UserId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
