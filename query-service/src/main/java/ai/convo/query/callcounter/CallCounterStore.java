package ai.convo.query.callcounter;

import ai.convo.contract.callcounter.CallRecord;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The call counter tables, changed by a set of new call records in a fixed number of statements whatever their
 * size (arrays in, {@code unnest} in SQL). Runs inside the processor's transaction, so the counters and the
 * processor's token commit together. See CALLCOUNTER.md for the definitions and the algorithm.
 */
@Component
class CallCounterStore {

    /** First key of the per-organisation advisory lock (the second is a hash of the organisation id). */
    static final int LOCK_SPACE = 0x43414C4C; // "CALL"
    static final String EPOCH = "DATE '1970-01-01'";

    private final JdbcTemplate jdbc;

    public CallCounterStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the delivery of one part of a batch; false when it was counted before (never count twice). */
    public boolean firstDelivery(String batchId, int part) {
        return jdbc.update("INSERT INTO call_counter_batch (batch_id, part) VALUES (?, ?) ON CONFLICT DO NOTHING",
                batchId, part) == 1;
    }

    /** Adds new call records of one organisation to its counters; every affected day is exact afterwards. */
    public void apply(String organisationId, Collection<CallRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        CallCounterChanges changes = CallCounterChanges.of(records);
        // One writer per organisation at a time (the processor also sequences by organisation): a day's maximum
        // is computed from other rows of the same organisation.
        jdbc.query("SELECT pg_advisory_xact_lock(?, hashtext(?))", rs -> null, LOCK_SPACE, organisationId);
        addDayCounts(organisationId, changes);
        addMinuteDeltas(organisationId, changes);
        addCoverage(organisationId, changes);
        recomputeMaxima(organisationId, changes.touchedDays);
    }

    public void clear() {
        jdbc.update("TRUNCATE call_counter_day, call_counter_minute, call_counter_batch");
    }

    private void addDayCounts(String organisationId, CallCounterChanges changes) {
        int size = changes.days.size();
        Integer[] days = new Integer[size];
        Long[] processed = new Long[size];
        Long[] billable = new Long[size];
        Long[] minutes = new Long[size];
        Long[] net = new Long[size];
        int i = 0;
        for (Map.Entry<Long, long[]> day : changes.days.entrySet()) {
            days[i] = Math.toIntExact(day.getKey());
            processed[i] = day.getValue()[0];
            billable[i] = day.getValue()[1];
            minutes[i] = day.getValue()[2];
            net[i] = day.getValue()[3];
            i++;
        }
        jdbc.update(con -> {
            PreparedStatement statement = con.prepareStatement(
                    "INSERT INTO call_counter_day (organisation_id, day, processed_calls, billable_calls, call_minutes, "
                            + "net_delta) SELECT ?, " + EPOCH + " + d, p, b, m, n "
                            + "FROM unnest(?::int[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) AS u (d, p, b, m, n) "
                            + "ON CONFLICT (organisation_id, day) DO UPDATE SET "
                            + "processed_calls = call_counter_day.processed_calls + excluded.processed_calls, "
                            + "billable_calls = call_counter_day.billable_calls + excluded.billable_calls, "
                            + "call_minutes = call_counter_day.call_minutes + excluded.call_minutes, "
                            + "net_delta = call_counter_day.net_delta + excluded.net_delta");
            statement.setString(1, organisationId);
            statement.setArray(2, con.createArrayOf("int4", days));
            statement.setArray(3, con.createArrayOf("int8", processed));
            statement.setArray(4, con.createArrayOf("int8", billable));
            statement.setArray(5, con.createArrayOf("int8", minutes));
            statement.setArray(6, con.createArrayOf("int8", net));
            return statement;
        });
    }

    /**
     * Reads the touched minutes, adds the new deltas in memory and writes them back with their summaries: one
     * select, one update of the existing rows, one insert of the new ones (no other writer holds the lock).
     */
    private void addMinuteDeltas(String organisationId, CallCounterChanges changes) {
        if (changes.minutes.isEmpty()) {
            return;
        }
        Long[] keys = changes.minutes.keySet().toArray(new Long[0]);
        Map<Long, int[]> merged = new HashMap<>(changes.minutes);
        Set<Long> stored = new HashSet<>();
        jdbc.query(con -> {
            PreparedStatement statement = con.prepareStatement(
                    "SELECT minute, deltas FROM call_counter_minute WHERE organisation_id = ? AND minute = ANY (?)");
            statement.setString(1, organisationId);
            statement.setArray(2, con.createArrayOf("int8", keys));
            return statement;
        }, row -> {
            long minute = row.getLong(1);
            stored.add(minute);
            int[] deltas = merged.get(minute);
            Array array = row.getArray(2);
            Object[] values = (Object[]) array.getArray();
            for (int s = 0; s < MinuteDeltas.SECONDS && s < values.length; s++) {
                deltas[s] += ((Number) values[s]).intValue();
            }
            array.free();
        });
        writeMinutes(organisationId, merged, stored, true);
        writeMinutes(organisationId, merged, stored, false);
    }

    private void writeMinutes(String organisationId, Map<Long, int[]> merged, Set<Long> stored, boolean update) {
        List<Long> minutes = new ArrayList<>();
        List<String> deltas = new ArrayList<>();
        List<Integer> nets = new ArrayList<>();
        List<Integer> peaks = new ArrayList<>();
        for (Map.Entry<Long, int[]> minute : merged.entrySet()) {
            if (stored.contains(minute.getKey()) == update) {
                minutes.add(minute.getKey());
                deltas.add(MinuteDeltas.text(minute.getValue()));
                nets.add(MinuteDeltas.net(minute.getValue()));
                peaks.add(MinuteDeltas.maxPrefix(minute.getValue()));
            }
        }
        if (minutes.isEmpty()) {
            return;
        }
        String sql = update
                ? "UPDATE call_counter_minute AS c SET deltas = string_to_array(u.d, ',')::int[], net = u.n, "
                        + "max_prefix = u.x FROM unnest(?::bigint[], ?::text[], ?::int[], ?::int[]) AS u (m, d, n, x) "
                        + "WHERE c.organisation_id = ? AND c.minute = u.m"
                : "INSERT INTO call_counter_minute (organisation_id, minute, deltas, net, max_prefix) "
                        + "SELECT ?, m, string_to_array(d, ',')::int[], n, x "
                        + "FROM unnest(?::bigint[], ?::text[], ?::int[], ?::int[]) AS u (m, d, n, x)";
        jdbc.update(con -> {
            PreparedStatement statement = con.prepareStatement(sql);
            int i = 1;
            if (!update) {
                statement.setString(i++, organisationId);
            }
            statement.setArray(i++, con.createArrayOf("int8", minutes.toArray()));
            statement.setArray(i++, con.createArrayOf("text", deltas.toArray()));
            statement.setArray(i++, con.createArrayOf("int4", nets.toArray()));
            statement.setArray(i++, con.createArrayOf("int4", peaks.toArray()));
            if (update) {
                statement.setString(i, organisationId);
            }
            return statement;
        });
    }

    /** A day a call covers from its first to its last second: every instant of it has that many more calls. */
    private void addCoverage(String organisationId, CallCounterChanges changes) {
        List<CallCounterChanges.CoveredDays> runs = changes.coveredDays();
        if (runs.isEmpty()) {
            return;
        }
        Integer[] recomputed = changes.touchedDays.stream().map(Math::toIntExact).toArray(Integer[]::new);
        for (CallCounterChanges.CoveredDays run : runs) {
            jdbc.update(con -> {
                PreparedStatement statement = con.prepareStatement(
                        "INSERT INTO call_counter_day (organisation_id, day, max_concurrency) "
                                + "SELECT ?, " + EPOCH + " + g, ? FROM generate_series(?::int, ?::int) AS g "
                                + "WHERE g <> ALL (?::int[]) "
                                + "ON CONFLICT (organisation_id, day) DO UPDATE SET "
                                + "max_concurrency = call_counter_day.max_concurrency + excluded.max_concurrency");
                statement.setString(1, organisationId);
                statement.setLong(2, run.calls());
                statement.setInt(3, Math.toIntExact(run.firstDay()));
                statement.setInt(4, Math.toIntExact(run.lastDay()));
                statement.setArray(5, con.createArrayOf("int4", recomputed));
                return statement;
            });
        }
    }

    /**
     * The maximum of each touched day, from its minutes' summaries: the count at the day's start (the net of all
     * earlier days) plus the highest running sum within the day.
     */
    private void recomputeMaxima(String organisationId, NavigableSet<Long> touchedDays) {
        if (touchedDays.isEmpty()) {
            return;
        }
        // The count carried into each touched day: the net of all earlier days, from one ordered scan.
        List<long[]> earlier = new ArrayList<>();
        jdbc.query("SELECT day - " + EPOCH + " AS d, net_delta FROM call_counter_day WHERE organisation_id = ? "
                        + "AND day < " + EPOCH + " + ? ORDER BY day", row -> {
                    earlier.add(new long[] {row.getLong(1), row.getLong(2)});
                }, organisationId, Math.toIntExact(touchedDays.last()));
        Map<Long, Long> carriedIn = new HashMap<>();
        long running = 0;
        int next = 0;
        for (long day : touchedDays) {
            while (next < earlier.size() && earlier.get(next)[0] < day) {
                running += earlier.get(next)[1];
                next++;
            }
            carriedIn.put(day, running);
        }
        Integer[] days = touchedDays.stream().map(Math::toIntExact).toArray(Integer[]::new);
        Map<Long, Long> peakWithin = new HashMap<>();
        Map<Long, Boolean> fromMidnight = new HashMap<>();
        jdbc.query(con -> {
            PreparedStatement statement = con.prepareStatement(
                    "SELECT t.d, max(m.before + m.max_prefix) AS peak, bool_or(m.minute = t.d::bigint * 1440) AS midnight "
                            + "FROM unnest(?::int[]) AS t (d) CROSS JOIN LATERAL ("
                            + "  SELECT minute, max_prefix, sum(net) OVER (ORDER BY minute) - net AS before "
                            + "  FROM call_counter_minute WHERE organisation_id = ? "
                            + "  AND minute >= t.d::bigint * 1440 AND minute < (t.d::bigint + 1) * 1440) AS m "
                            + "GROUP BY t.d");
            statement.setArray(1, con.createArrayOf("int4", days));
            statement.setString(2, organisationId);
            return statement;
        }, row -> {
            peakWithin.put(row.getLong(1), row.getLong(2));
            fromMidnight.put(row.getLong(1), row.getBoolean(3));
        });
        Long[] maxima = new Long[days.length];
        for (int i = 0; i < days.length; i++) {
            long day = days[i];
            long atStart = carriedIn.get(day);
            Long within = peakWithin.get(day);
            long max = within == null ? atStart : atStart + within;
            if (within != null && !fromMidnight.get(day)) {
                // Before the day's first changing minute the count is the one carried in from the day before.
                max = Math.max(max, atStart);
            }
            maxima[i] = Math.max(0, max);
        }
        jdbc.update(con -> {
            PreparedStatement statement = con.prepareStatement(
                    "UPDATE call_counter_day SET max_concurrency = u.x FROM unnest(?::int[], ?::bigint[]) AS u (d, x) "
                            + "WHERE organisation_id = ? AND day = " + EPOCH + " + u.d");
            statement.setArray(1, con.createArrayOf("int4", days));
            statement.setArray(2, con.createArrayOf("int8", maxima));
            statement.setString(3, organisationId);
            return statement;
        });
    }
}
