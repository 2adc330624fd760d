package ai.convo.http.security;

/**
 * How long failed sign-ins lock an e-mail: the first {@link #FREE_FAILURES} cost nothing (typos), each one after
 * doubles the lock, from 1 s (the unit) up to {@link #MAX_LOCK_MILLIS}. A guesser gets about a hundred tries a day; a user who
 * mistypes a few times waits seconds. Failures older than {@link #FORGET_AFTER_MILLIS} are forgotten.
 */
public final class LoginLock {

    public static final int FREE_FAILURES = 5;
    public static final long MAX_LOCK_MILLIS = 15 * 60 * 1000L;
    public static final long FORGET_AFTER_MILLIS = 24 * 60 * 60 * 1000L;

    private LoginLock() {
    }

    /** The lock (milliseconds) after this many failures in a row, the first lock being {@code unitMillis} (1 s). */
    public static long after(int failures, long unitMillis) {
        if (failures < FREE_FAILURES) {
            return 0;
        }
        int doublings = Math.min(failures - FREE_FAILURES, 20);
        return Math.min(Math.max(MAX_LOCK_MILLIS, unitMillis), unitMillis << doublings);
    }

    /**
     * How long a new password check must wait (0: it may start now): while the e-mail is locked, and while the
     * {@code checking} checks in flight would lock it were they all to fail. Counted as failures to come, parallel
     * guesses get no more checks than guesses one after another.
     */
    public static long waitFor(int failures, int checking, long lockedUntil, long now, long unitMillis) {
        long coming = checking == 0 ? 0 : after(failures + checking, unitMillis);
        return Math.max(Math.max(0, lockedUntil - now), coming);
    }

    /** The failures that still count at {@code now}, given the last one's time. */
    public static int counting(int failures, long lastFailureAt, long now) {
        return now - lastFailureAt > FORGET_AFTER_MILLIS ? 0 : failures;
    }

    /** Retry-After: whole seconds, rounded up, at least 1. */
    public static long retryAfterSeconds(long lockedForMillis) {
        return Math.max(1, (lockedForMillis + 999) / 1000);
    }
}
