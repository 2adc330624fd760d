package ai.convo.contract.intent;

import ai.convo.contract.common.Ids;

/** Id of an example sentence of an intent; validates itself. {@link #toString()} is the bare id. */
public record SentenceId(String value) {
    public SentenceId {
        Ids.require("sentenceId", value);
    }

    public static SentenceId of(String value) {
        return new SentenceId(value);
    }

    public static SentenceId generate() {
        return new SentenceId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
