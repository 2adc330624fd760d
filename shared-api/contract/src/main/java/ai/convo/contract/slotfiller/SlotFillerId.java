package ai.convo.contract.slotfiller;

import ai.convo.contract.common.Ids;

/** Id of a slot filler; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record SlotFillerId(String value) {
    public SlotFillerId {
        Ids.require("slotFillerId", value);
    }

    public static SlotFillerId of(String value) {
        return new SlotFillerId(value);
    }

    public static SlotFillerId generate() {
        return new SlotFillerId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
