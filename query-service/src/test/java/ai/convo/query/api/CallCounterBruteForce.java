package ai.convo.query.api;

import ai.convo.contract.callcounter.CallRecord;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The call counter definitions computed the slow, obvious way, independent of the projection: for each day, the
 * calls that started on it, and the number of calls in progress at the day's first instant and at every instant
 * a call starts within the day (the count only rises at those instants), each counted call by call.
 */
public final class CallCounterBruteForce {

    public record Day(LocalDate date, long maxConcurrency, long callMinutes, long processedCalls, long billableCalls) {

        public Map<String, Object> toWire() {
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("day", date.getDayOfMonth());
            wire.put("month", date.getMonthValue());
            wire.put("year", date.getYear());
            wire.put("maxConcurrency", maxConcurrency);
            wire.put("callMinutes", callMinutes);
            wire.put("processedCalls", processedCalls);
            wire.put("billableCalls", billableCalls);
            return wire;
        }
    }

    private CallCounterBruteForce() {
    }

    public static List<Day> days(Collection<CallRecord> calls, LocalDate from, LocalDate to) {
        List<Day> days = new ArrayList<>();
        for (LocalDate date = from; !date.isAfter(to); date = date.plusDays(1)) {
            long dayStart = date.atStartOfDay().toEpochSecond(ZoneOffset.UTC);
            long dayEnd = dayStart + 86_400;
            long processed = 0;
            long billable = 0;
            long minutes = 0;
            List<CallRecord> overlapping = new ArrayList<>();
            for (CallRecord call : calls) {
                if (call.startedAt() >= dayStart && call.startedAt() < dayEnd) {
                    processed++;
                    billable += call.billable() ? 1 : 0;
                    long seconds = call.endedAt() - call.startedAt();
                    minutes += seconds / 60 + (seconds % 60 == 0 ? 0 : 1);
                }
                if (call.startedAt() < dayEnd && call.endedAt() > dayStart && call.endedAt() > call.startedAt()) {
                    overlapping.add(call);
                }
            }
            List<Long> instants = new ArrayList<>();
            instants.add(dayStart);
            for (CallRecord call : overlapping) {
                if (call.startedAt() >= dayStart) {
                    instants.add(call.startedAt());
                }
            }
            long max = 0;
            for (long instant : instants) {
                long inProgress = 0;
                for (CallRecord call : overlapping) {
                    if (call.startedAt() <= instant && instant < call.endedAt()) {
                        inProgress++;
                    }
                }
                max = Math.max(max, inProgress);
            }
            days.add(new Day(date, max, minutes, processed, billable));
        }
        return days;
    }
}
