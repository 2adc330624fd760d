package ai.convo.command.callcounter;

import ai.convo.contract.callcounter.CallCounterRules;
import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything wrong with a batch of call records, by record index ({@code records[3].endedAt}), so that one 400
 * names every bad record at once. The rules for a single record live here, used by the HTTP layer and by the
 * command handler alike.
 */
final class CallRecordProblems {

    static final String TIME_RULE = "an integer from 0 to " + CallCounterRules.MAX_TIME + " (Unix seconds)";
    static final String CALL_ID_RULE = "a string of 1 to " + CallCounterRules.MAX_CALL_ID_LENGTH
            + " characters without control characters";
    private static final int SHOWN_IN_DETAIL = 5;

    private final Map<String, Object> batch = new LinkedHashMap<>();
    private final TreeMap<Integer, Map<String, Object>> byRecord = new TreeMap<>();

    void batch(String field, String problem) {
        batch.put(field, problem);
    }

    void record(int index, String field, String problem) {
        byRecord.computeIfAbsent(index, i -> new LinkedHashMap<>()).putIfAbsent(field, problem);
    }

    boolean isEmpty() {
        return batch.isEmpty() && byRecord.isEmpty();
    }

    boolean hasRecord(int index) {
        return byRecord.containsKey(index);
    }

    int badRecords() {
        return byRecord.size();
    }

    /** The details of the problem body: batch-level problems first, then every record's, in index order. */
    Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>(batch);
        byRecord.forEach((index, fields) -> fields.forEach((field, problem) ->
                details.put("records[" + index + "]" + (field.isEmpty() ? "" : "." + field), problem)));
        return details;
    }

    /** A 400 that says how many records are bad, shows the first few problems and lists all in details. */
    DomainException toException(int received) {
        Map<String, Object> details = details();
        StringBuilder detail = new StringBuilder();
        if (byRecord.isEmpty()) {
            detail.append("The batch of call records is invalid, so nothing was stored: ");
        } else {
            detail.append(byRecord.size()).append(" of ").append(received).append(" call record")
                    .append(received == 1 ? " is" : "s are").append(" invalid, so nothing was stored: ");
        }
        int shown = 0;
        for (Map.Entry<String, Object> entry : details.entrySet()) {
            if (shown == SHOWN_IN_DETAIL) {
                detail.append("; and ").append(details.size() - shown).append(" more");
                break;
            }
            detail.append(shown == 0 ? "" : "; ").append(entry.getKey()).append(' ').append(entry.getValue());
            shown++;
        }
        detail.append(". details lists every problem by record index.");
        return new DomainException(DomainException.Kind.INVALID, detail.toString(), details);
    }

    // ---- the rules

    static void checkSize(int size, CallRecordProblems problems) {
        if (size < 1 || size > CallCounterRules.MAX_BATCH) {
            problems.batch("records", "must hold 1 to " + CallCounterRules.MAX_BATCH + " call records; got " + size);
        }
    }

    /** The rules of one well-typed record: callId shape, projectId shape, time ranges, end not before start. */
    static void checkRecord(int index, CallRecord record, CallRecordProblems problems) {
        String callId = record.callId();
        if (callId == null || callId.isEmpty() || callId.length() > CallCounterRules.MAX_CALL_ID_LENGTH
                || callId.isBlank() || hasControlCharacter(callId)) {
            problems.record(index, "callId", "must be " + CALL_ID_RULE + "; got " + describe(callId));
        }
        if (!Ids.isValid(record.projectId())) {
            problems.record(index, "projectId", "must be an id of 24 characters [a-z0-9]; got " + describe(record.projectId()));
        }
        boolean startOk = inRange(record.startedAt());
        boolean endOk = inRange(record.endedAt());
        if (!startOk) {
            problems.record(index, "startedAt", "must be " + TIME_RULE + "; got " + record.startedAt());
        }
        if (!endOk) {
            problems.record(index, "endedAt", "must be " + TIME_RULE + "; got " + record.endedAt());
        }
        if (startOk && endOk && record.endedAt() < record.startedAt()) {
            problems.record(index, "endedAt", "must not be before startedAt; got endedAt " + record.endedAt()
                    + " < startedAt " + record.startedAt());
        }
    }

    /** Every record must name an existing project of the organisation; another organisation's is as unknown. */
    static void checkProjects(Map<Integer, CallRecord> records, String organisationId, Map<String, String> owners,
                              CallRecordProblems problems) {
        records.forEach((index, record) -> {
            if (Ids.isValid(record.projectId()) && !organisationId.equals(owners.get(record.projectId()))) {
                problems.record(index, "projectId", "project " + record.projectId()
                        + " does not exist in organisation " + organisationId);
            }
        });
    }

    /** All rules over a whole batch, as the command handler applies them. */
    static CallRecordProblems of(List<CallRecord> records, String organisationId, ProjectOwners projects) {
        CallRecordProblems problems = new CallRecordProblems();
        checkSize(records.size(), problems);
        Map<Integer, CallRecord> indexed = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            checkRecord(i, records.get(i), problems);
            indexed.put(i, records.get(i));
        }
        Set<String> projectIds = new HashSet<>();
        records.forEach(r -> {
            if (Ids.isValid(r.projectId())) {
                projectIds.add(r.projectId());
            }
        });
        checkProjects(indexed, organisationId, projectIds.isEmpty() ? Map.of() : projects.ownersOf(projectIds), problems);
        return problems;
    }

    static boolean inRange(long time) {
        return time >= 0 && time <= CallCounterRules.MAX_TIME;
    }

    private static boolean hasControlCharacter(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    static String describe(String value) {
        if (value == null) {
            return "nothing";
        }
        String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
        return "'" + shown.replaceAll("\\p{Cntrl}", "?") + "' (" + value.length() + " characters)";
    }
}
