package ai.convo.contract.callcounter;

import java.util.List;

/**
 * Call records an organisation reported in one accepted batch, after deduplication: {@code records} holds only
 * the records whose callId the organisation had not used before (the first occurrence when a batch repeats a
 * callId). A batch is stored as the history of its own aggregate ({@code batchId}) in {@code parts} events of at
 * most 1,000 records each, all appended in one transaction; {@code part} counts from 0. A batch with nothing
 * new is one event with no records, so every accepted batch leaves a trace.
 *
 * <p>{@code received} and {@code duplicates} describe the whole batch and are the same in all its parts.
 * Times are Unix seconds. Stored by class name: never move or rename this type or its fields without an upcaster.
 */
public record CallRecordsIngestedEvent(
        String batchId,
        String organisationId,
        int part,
        int parts,
        List<CallRecord> records,
        int received,
        int duplicates,
        String ingestedBy,
        long ingestedAt) {
}
