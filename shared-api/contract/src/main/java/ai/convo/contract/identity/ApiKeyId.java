package ai.convo.contract.identity;

import ai.convo.contract.common.Ids;

/** Id of a ApiKey; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record ApiKeyId(String value) {
    public ApiKeyId {
        Ids.require("apiKeyId", value);
    }

    public static ApiKeyId of(String value) {
        return new ApiKeyId(value);
    }

    public static ApiKeyId generate() {
        return new ApiKeyId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
