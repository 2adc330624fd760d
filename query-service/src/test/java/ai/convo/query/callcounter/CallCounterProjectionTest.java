package ai.convo.query.callcounter;

import ai.convo.query.ReadModelSchema;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The call counter projection is plain code: feed it events, look at the day rows. */
@Tag("integration")
class CallCounterProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String OTHER_ORG = "000000000000000000000009";
    static final String USER = "000000000000000000000002";
    static final String PROJECT = "0000000000000000000000a1";
    static final LocalDate DAY = LocalDate.of(2026, 3, 10);
    static final long MIDNIGHT = DAY.atStartOfDay().toEpochSecond(ZoneOffset.UTC);

    static JdbcTemplate jdbc;
    CallCounterProjection projection;
    int batches;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new JdbcTemplate(dataSource);
    }

    @BeforeEach
    void empty() {
        projection = new CallCounterProjection(new CallCounterStore(jdbc));
        projection.reset();
    }

    static CallRecord call(String id, long start, long end, boolean billable) {
        return new CallRecord(id, PROJECT, start, end, billable);
    }

    private CallRecordsIngestedEvent batch(String organisationId, CallRecord... records) {
        String batchId = String.format("%024d", ++batches);
        return new CallRecordsIngestedEvent(batchId, organisationId, 0, 1, List.of(records), records.length, 0, USER, 0);
    }

    private void given(CallRecordsIngestedEvent... events) {
        for (CallRecordsIngestedEvent event : events) {
            projection.on(event);
        }
    }

    /** {processedCalls, billableCalls, callMinutes, maxConcurrency} of a day; zeros without a row. */
    private List<Long> day(String organisationId, LocalDate day) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT * FROM call_counter_day WHERE organisation_id = ? "
                + "AND day = ?", organisationId, day);
        if (rows.isEmpty()) {
            return List.of(0L, 0L, 0L, 0L);
        }
        Map<String, Object> row = rows.get(0);
        return List.of((Long) row.get("processed_calls"), (Long) row.get("billable_calls"),
                (Long) row.get("call_minutes"), (Long) row.get("max_concurrency"));
    }

    private List<Long> day(LocalDate day) {
        return day(ORG, day);
    }

    @Test
    void callsCountOnTheDayTheyStartWithTheirDurationRoundedUpToWholeMinutes() {
        given(batch(ORG, call("a", MIDNIGHT + 100, MIDNIGHT + 100, true),   // 0 s: 0 minutes
                call("b", MIDNIGHT + 200, MIDNIGHT + 201, true),            // 1 s: 1 minute
                call("c", MIDNIGHT + 300, MIDNIGHT + 360, false),           // 60 s: 1 minute
                call("d", MIDNIGHT + 400, MIDNIGHT + 461, false)));         // 61 s: 2 minutes

        assertThat(day(DAY).subList(0, 3)).containsExactly(4L, 2L, 4L);
    }

    @Test
    void aCallThatEndsWhenAnotherStartsDoesNotOverlapIt() {
        given(batch(ORG, call("a", MIDNIGHT + 100, MIDNIGHT + 200, false),
                call("b", MIDNIGHT + 200, MIDNIGHT + 300, false),
                call("c", MIDNIGHT + 300, MIDNIGHT + 400, false)));

        assertThat(day(DAY).get(3)).isEqualTo(1L);

        given(batch(ORG, call("d", MIDNIGHT + 299, MIDNIGHT + 301, false)));
        assertThat(day(DAY).get(3)).isEqualTo(2L);
    }

    @Test
    void aCallWithoutDurationIsProcessedButNeverInProgress() {
        given(batch(ORG, call("a", MIDNIGHT + 100, MIDNIGHT + 100, true)));

        assertThat(day(DAY)).containsExactly(1L, 1L, 0L, 0L);
    }

    @Test
    void aCallRunningOverMidnightCountsInBothDaysConcurrencyButStartsOnlyOnce() {
        given(batch(ORG, call("late", MIDNIGHT - 60, MIDNIGHT + 60, true),
                call("early", MIDNIGHT + 30, MIDNIGHT + 90, false)));

        assertThat(day(DAY.minusDays(1))).containsExactly(1L, 1L, 2L, 1L);
        assertThat(day(DAY)).containsExactly(1L, 0L, 1L, 2L);
    }

    @Test
    void aCallEndingAtMidnightIsNotInProgressOnTheNextDay() {
        given(batch(ORG, call("a", MIDNIGHT - 60, MIDNIGHT, false), call("b", MIDNIGHT, MIDNIGHT + 60, false)));

        assertThat(day(DAY.minusDays(1)).get(3)).isEqualTo(1L);
        assertThat(day(DAY).get(3)).isEqualTo(1L);
    }

    @Test
    void aCallLastingDaysRaisesEveryDayItCoversEvenWhereNothingElseHappens() {
        long threeDaysLater = MIDNIGHT + 3 * 86_400 + 7_200;
        given(batch(ORG, call("long", MIDNIGHT + 3_600, threeDaysLater, true)));

        assertThat(day(DAY)).containsExactly(1L, 1L, (threeDaysLater - MIDNIGHT - 3_600) / 60, 1L);
        assertThat(day(DAY.plusDays(1))).containsExactly(0L, 0L, 0L, 1L);
        assertThat(day(DAY.plusDays(2))).containsExactly(0L, 0L, 0L, 1L);
        assertThat(day(DAY.plusDays(3))).containsExactly(0L, 0L, 0L, 1L);
        assertThat(day(DAY.plusDays(4)).get(3)).isZero();

        // A later, shorter call inside a covered day adds to the carried-in call there.
        given(batch(ORG, call("inside", MIDNIGHT + 86_400 + 500, MIDNIGHT + 86_400 + 600, false)),
                batch(ORG, call("also-long", MIDNIGHT - 86_400, MIDNIGHT + 2 * 86_400 + 10, false)));
        assertThat(day(DAY.plusDays(1)).get(3)).isEqualTo(3L);
        assertThat(day(DAY.plusDays(2)).get(3)).isEqualTo(2L);
        assertThat(day(DAY.plusDays(3)).get(3)).isEqualTo(1L);
        assertThat(day(DAY).get(3)).isEqualTo(2L);
    }

    @Test
    void lateAndOutOfOrderBatchesGiveTheSameCountersAsInOrder() {
        CallRecordsIngestedEvent[] batchesInOrder = {
                batch(ORG, call("1", MIDNIGHT + 10, MIDNIGHT + 1_000, true), call("2", MIDNIGHT + 20, MIDNIGHT + 30, false)),
                batch(ORG, call("3", MIDNIGHT + 25, MIDNIGHT + 2_000, true), call("4", MIDNIGHT - 5, MIDNIGHT + 26, true)),
                batch(ORG, call("5", MIDNIGHT + 999, MIDNIGHT + 1_001, false))};
        given(batchesInOrder);
        List<Long> today = day(DAY);
        List<Long> yesterday = day(DAY.minusDays(1));
        assertThat(today).containsExactly(4L, 2L, 17L + 1 + 33 + 1, 4L);

        projection.reset();
        given(batch(ORG, call("5", MIDNIGHT + 999, MIDNIGHT + 1_001, false)),
                batch(ORG, call("3", MIDNIGHT + 25, MIDNIGHT + 2_000, true), call("4", MIDNIGHT - 5, MIDNIGHT + 26, true)),
                batch(ORG, call("1", MIDNIGHT + 10, MIDNIGHT + 1_000, true), call("2", MIDNIGHT + 20, MIDNIGHT + 30, false)));
        assertThat(day(DAY)).isEqualTo(today);
        assertThat(day(DAY.minusDays(1))).isEqualTo(yesterday);
    }

    @Test
    void aCallStartedBefore2025CarriesIntoItsFirstDaysWithoutBeingReportedBefore() {
        LocalDate first = LocalDate.of(2025, 1, 1);
        long newYear = first.atStartOfDay().toEpochSecond(ZoneOffset.UTC);
        given(batch(ORG, call("old", newYear - 3_600, newYear + 86_400 + 60, false)),
                batch(ORG, call("new", newYear + 86_400 + 30, newYear + 86_400 + 40, false)));

        assertThat(day(first.minusDays(1)).subList(0, 3)).containsExactly(1L, 0L, 1_501L);
        assertThat(day(first).get(3)).isEqualTo(1L);
        assertThat(day(first.plusDays(1)).get(3)).isEqualTo(2L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM call_counter_minute WHERE minute < ?", Long.class,
                newYear / 60)).as("no minute rows before 2025").isZero();
    }

    @Test
    void aPartDeliveredTwiceCountsOnce() {
        CallRecordsIngestedEvent event = batch(ORG, call("a", MIDNIGHT + 10, MIDNIGHT + 100, true));
        given(event, event);

        assertThat(day(DAY)).containsExactly(1L, 1L, 2L, 1L);
    }

    @Test
    void organisationsAreCountedApart() {
        given(batch(ORG, call("a", MIDNIGHT + 10, MIDNIGHT + 100, true)),
                batch(OTHER_ORG, call("a", MIDNIGHT + 10, MIDNIGHT + 100, true), call("b", MIDNIGHT + 50, MIDNIGHT + 60, true)));

        assertThat(day(ORG, DAY)).containsExactly(1L, 1L, 2L, 1L);
        assertThat(day(OTHER_ORG, DAY)).containsExactly(2L, 2L, 3L, 2L);
    }

    @Test
    void aBatchWithoutRecordsChangesNothing() {
        given(new CallRecordsIngestedEvent("00000000000000000000abcd", ORG, 0, 1, List.of(), 3, 3, USER, 0));

        assertThat(jdbc.queryForObject("SELECT count(*) FROM call_counter_day", Long.class)).isZero();
    }
}
