package ai.convo.contract.callcounter;

/**
 * One finished call, as a client reports it and as {@link CallRecordsIngestedEvent} stores it: the call was in
 * progress from {@code startedAt} (inclusive) to {@code endedAt} (exclusive), both Unix seconds.
 *
 * <p>Deliberately free of validation: it is part of stored events, which must stay readable even if the rules
 * for new records change. The write side checks every record before it becomes part of an event.
 */
public record CallRecord(String callId, String projectId, long startedAt, long endedAt, boolean billable) {
}
