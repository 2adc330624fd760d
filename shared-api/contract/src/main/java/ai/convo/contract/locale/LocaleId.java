package ai.convo.contract.locale;

import ai.convo.contract.common.Ids;

/** Id of a Locale; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record LocaleId(String value) {
    public LocaleId {
        Ids.require("localeId", value);
    }

    public static LocaleId of(String value) {
        return new LocaleId(value);
    }

    public static LocaleId generate() {
        return new LocaleId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
