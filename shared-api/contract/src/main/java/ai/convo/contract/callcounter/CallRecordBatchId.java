package ai.convo.contract.callcounter;

import ai.convo.contract.common.Ids;

/** Id of one accepted batch of call records; validates itself. {@link #toString()} is the bare id (Axon routing). */
public record CallRecordBatchId(String value) {
    public CallRecordBatchId {
        Ids.require("batchId", value);
    }

    public static CallRecordBatchId of(String value) {
        return new CallRecordBatchId(value);
    }

    public static CallRecordBatchId generate() {
        return new CallRecordBatchId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
