package ai.convo.contract.systemmessage;

import ai.convo.contract.common.Ids;

/** Id of a System message; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record SystemMessageId(String value) {
    public SystemMessageId {
        Ids.require("systemMessageId", value);
    }

    public static SystemMessageId of(String value) {
        return new SystemMessageId(value);
    }

    public static SystemMessageId generate() {
        return new SystemMessageId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
