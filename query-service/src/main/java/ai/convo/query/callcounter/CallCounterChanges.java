package ai.convo.query.callcounter;

import ai.convo.contract.callcounter.CallCounterRules;
import ai.convo.contract.callcounter.CallRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a set of new call records changes, before anything is read or written: per UTC day the counts that only
 * add up (calls started, billable calls, minutes, the net of all deltas), per minute the per-second deltas, the
 * days whose concurrency must be recomputed (a delta falls on them), and the days a call covers entirely, whose
 * maximum concurrency simply rises by the number of such calls.
 */
final class CallCounterChanges {

    static final long SECONDS_PER_DAY = 86_400;
    static final long FIRST_DAY = CallCounterRules.FIRST_DAY.toEpochDay();

    /** Per epoch day: {processedCalls, billableCalls, callMinutes, netDelta}. */
    final Map<Long, long[]> days = new HashMap<>();
    /** Per epoch minute of a day from {@link #FIRST_DAY} on: the 60 per-second deltas of the new records. */
    final Map<Long, int[]> minutes = new HashMap<>();
    /** Days from {@link #FIRST_DAY} on with at least one new delta: their maximum is recomputed. */
    final NavigableSet<Long> touchedDays = new TreeSet<>();
    /** Difference array over days: +1 on the first day a call covers entirely, -1 after the last. */
    private final TreeMap<Long, Integer> coverage = new TreeMap<>();

    /** A run of consecutive days that {@code calls} more calls cover from their first to their last second. */
    record CoveredDays(long firstDay, long lastDay, int calls) {
    }

    static CallCounterChanges of(Iterable<CallRecord> records) {
        CallCounterChanges changes = new CallCounterChanges();
        records.forEach(changes::add);
        return changes;
    }

    void add(CallRecord record) {
        long start = record.startedAt();
        long end = record.endedAt();
        long startDay = Math.floorDiv(start, SECONDS_PER_DAY);
        long[] counts = day(startDay);
        counts[0]++;
        if (record.billable()) {
            counts[1]++;
        }
        counts[2] += callMinutes(start, end);
        if (end <= start) {
            // No instant is inside [start, end): the call was never in progress at the same time as another.
            return;
        }
        delta(start, 1);
        delta(end, -1);
        long endDay = Math.floorDiv(end, SECONDS_PER_DAY);
        if (endDay - startDay >= 2) {
            coverage.merge(startDay + 1, 1, Integer::sum);
            coverage.merge(endDay, -1, Integer::sum);
        }
    }

    /** Whole minutes, rounded up: 1 second is 1 minute, 60 seconds are 1, 61 are 2, 0 are 0. */
    static long callMinutes(long start, long end) {
        return Math.max(0, (end - start + 59) / 60);
    }

    private long[] day(long epochDay) {
        return days.computeIfAbsent(epochDay, d -> new long[4]);
    }

    private void delta(long second, int delta) {
        long epochDay = Math.floorDiv(second, SECONDS_PER_DAY);
        day(epochDay)[3] += delta;
        if (epochDay >= FIRST_DAY) {
            long minute = Math.floorDiv(second, 60);
            minutes.computeIfAbsent(minute, m -> new int[MinuteDeltas.SECONDS])[(int) Math.floorMod(second, 60)] += delta;
            touchedDays.add(epochDay);
        }
    }

    /** The fully covered days from {@link #FIRST_DAY} on, as runs of equal coverage; touched days included. */
    List<CoveredDays> coveredDays() {
        List<CoveredDays> runs = new ArrayList<>();
        int calls = 0;
        Long runStart = null;
        for (Map.Entry<Long, Integer> change : coverage.entrySet()) {
            if (runStart != null && calls > 0) {
                long first = Math.max(runStart, FIRST_DAY);
                long last = change.getKey() - 1;
                if (first <= last) {
                    runs.add(new CoveredDays(first, last, calls));
                }
            }
            calls += change.getValue();
            runStart = change.getKey();
        }
        return runs;
    }
}
