package ai.convo.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoginLockTest {

    @Test
    void givenFailuresInARow_thenTheFirstFiveAreFreeAndEachLaterOneDoublesTheLockUpToTheCap() {
        assertThat(LoginLock.after(4, 1000)).isZero();
        assertThat(LoginLock.after(5, 1000)).isEqualTo(1000);
        assertThat(LoginLock.after(6, 1000)).isEqualTo(2000);
        assertThat(LoginLock.after(14, 1000)).isEqualTo(512_000);
        assertThat(LoginLock.after(15, 1000)).isEqualTo(LoginLock.MAX_LOCK_MILLIS);
        assertThat(LoginLock.after(Integer.MAX_VALUE, 1000)).isEqualTo(LoginLock.MAX_LOCK_MILLIS);
    }

    @Test
    void givenAGuesserWaitingOutEveryLock_thenADayAllowsAboutAHundredTries() {
        long day = 24 * 60 * 60 * 1000L;
        long spent = 0;
        int tries = 0;
        while (spent < day) {
            tries++;
            spent += LoginLock.after(tries, 1000);
        }
        assertThat(tries).isBetween(90, 110);
    }

    @Test
    void givenChecksInFlight_thenTheyCountAsFailuresToCome_andANewCheckWaitsWhenTheyCouldLock() {
        long now = 1_000_000;
        // free failures left for every check in flight: a new one may start
        assertThat(LoginLock.waitFor(0, 4, 0, now, 1000)).isZero();
        assertThat(LoginLock.waitFor(3, 1, 0, now, 1000)).isZero();
        // the checks in flight would spend the last free failure: wait for the lock they would earn
        assertThat(LoginLock.waitFor(0, 5, 0, now, 1000)).isEqualTo(1000);
        assertThat(LoginLock.waitFor(6, 1, 0, now, 1000)).isEqualTo(4000);
        // past the free ones, one check at a time once the lock has run out
        assertThat(LoginLock.waitFor(9, 0, now, now, 1000)).isZero();
        assertThat(LoginLock.waitFor(9, 0, now + 1, now, 1000)).isEqualTo(1);
    }

    @Test
    void givenOldFailures_thenTheyNoLongerCount() {
        assertThat(LoginLock.counting(7, 0, LoginLock.FORGET_AFTER_MILLIS + 1)).isZero();
        assertThat(LoginLock.counting(7, 10, LoginLock.FORGET_AFTER_MILLIS)).isEqualTo(7);
        assertThat(LoginLock.retryAfterSeconds(1)).isEqualTo(1);
        assertThat(LoginLock.retryAfterSeconds(1001)).isEqualTo(2);
    }
}
