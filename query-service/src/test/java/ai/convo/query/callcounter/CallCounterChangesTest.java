package ai.convo.query.callcounter;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.callcounter.CallRecord;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure part of the projection: what records change, before any SQL. */
class CallCounterChangesTest {

    static final long DAY = LocalDate.of(2026, 3, 10).toEpochDay();
    static final long MIDNIGHT = LocalDate.of(2026, 3, 10).atStartOfDay().toEpochSecond(ZoneOffset.UTC);

    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "59, 1", "60, 1", "61, 2", "3600, 60", "3601, 61"})
    void callMinutesRoundUp(long seconds, long minutes) {
        assertThat(CallCounterChanges.callMinutes(100, 100 + seconds)).isEqualTo(minutes);
    }

    @Test
    void theRunningMaximumOfAMinuteCountsEverySecond() {
        int[] deltas = new int[60];
        assertThat(MinuteDeltas.maxPrefix(deltas)).isZero();
        deltas[0] = -2;
        assertThat(MinuteDeltas.maxPrefix(deltas)).isEqualTo(-2);
        deltas[10] = 3;
        deltas[11] = -1;
        assertThat(MinuteDeltas.maxPrefix(deltas)).isEqualTo(1);
        assertThat(MinuteDeltas.net(deltas)).isZero();
        assertThat(MinuteDeltas.text(new int[] {1, -1, 0})).isEqualTo("1,-1,0");
    }

    @Test
    void deltasLandInTheirMinuteAndSecondAndMarkTheirDays() {
        CallCounterChanges changes = CallCounterChanges.of(List.of(
                new CallRecord("a", "p", MIDNIGHT - 1, MIDNIGHT + 61, true)));

        assertThat(changes.minutes.get(MIDNIGHT / 60 - 1)[59]).isEqualTo(1);
        assertThat(changes.minutes.get(MIDNIGHT / 60 + 1)[1]).isEqualTo(-1);
        assertThat(changes.touchedDays).containsExactly(DAY - 1, DAY);
        assertThat(changes.days.get(DAY - 1)).containsExactly(1, 1, 2, 1);
        assertThat(changes.days.get(DAY)).containsExactly(0, 0, 0, -1);
        assertThat(changes.coveredDays()).isEmpty();
    }

    @Test
    void longCallsCoverRunsOfWholeDays() {
        CallCounterChanges changes = CallCounterChanges.of(List.of(
                new CallRecord("a", "p", MIDNIGHT + 5, MIDNIGHT + 4 * 86_400, false),          // covers DAY+1..DAY+3
                new CallRecord("b", "p", MIDNIGHT + 86_400 + 5, MIDNIGHT + 3 * 86_400 + 1, false), // covers DAY+2
                new CallRecord("c", "p", MIDNIGHT + 5, MIDNIGHT + 86_400 + 5, false)));          // covers nothing

        assertThat(changes.coveredDays()).containsExactly(
                new CallCounterChanges.CoveredDays(DAY + 1, DAY + 1, 1),
                new CallCounterChanges.CoveredDays(DAY + 2, DAY + 2, 2),
                new CallCounterChanges.CoveredDays(DAY + 3, DAY + 3, 1));
        // The ending at midnight is a delta of DAY+4: that day is recomputed, not covered.
        assertThat(changes.touchedDays).contains(DAY + 4);
    }

    @Test
    void coverageBefore2025IsClippedAndMinutesBefore2025AreNotKept() {
        long newYear = LocalDate.of(2025, 1, 1).atStartOfDay().toEpochSecond(ZoneOffset.UTC);
        CallCounterChanges changes = CallCounterChanges.of(List.of(
                new CallRecord("old", "p", newYear - 10 * 86_400, newYear + 2 * 86_400 + 1, false)));

        assertThat(changes.coveredDays()).containsExactly(new CallCounterChanges.CoveredDays(
                CallCounterChanges.FIRST_DAY, CallCounterChanges.FIRST_DAY + 1, 1));
        assertThat(changes.minutes).hasSize(1);
        assertThat(changes.touchedDays).containsExactly(CallCounterChanges.FIRST_DAY + 2);
        assertThat(changes.days.get(CallCounterChanges.FIRST_DAY - 10)).containsExactly(1, 0, 17_281, 1);
    }
}
