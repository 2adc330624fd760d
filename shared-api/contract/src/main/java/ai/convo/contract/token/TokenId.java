package ai.convo.contract.token;

import ai.convo.contract.common.Ids;

/** Id of a Token (the API's "snippet"); validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record TokenId(String value) {
    public TokenId {
        Ids.require("snippetId", value);
    }

    public static TokenId of(String value) {
        return new TokenId(value);
    }

    public static TokenId generate() {
        return new TokenId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
