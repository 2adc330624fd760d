package ai.convo.persistence;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Whether event handlers now apply each event on its own (issue 37): its writes sent at once under a savepoint, so
 * that an event the database refuses fails in its own handler, where the dead-letter queue parks its sequence,
 * instead of at the batch's commit, where it would fail the batch over and over. Batches stay the fast path: an event
 * is handled carefully only for a while after a projection transaction failed, and always when a parked event is
 * tried again ({@link #during}).
 */
public final class CarefulProjections {

    private static final ThreadLocal<Boolean> FORCED = new ThreadLocal<>();

    private final long windowNanos;
    /**
     * Careful while System.nanoTime() is before this. Not Long.MIN_VALUE: nanoTime() - MIN_VALUE overflows to a
     * negative difference, which made every event careful (a savepoint and round trips each) until a first failure.
     */
    private volatile long until = System.nanoTime();

    public CarefulProjections(Duration window) {
        this.windowNanos = window.toNanos();
    }

    /** A projection transaction failed or rolled back: apply events carefully for the window from now. */
    public void failed() {
        until = System.nanoTime() + windowNanos;
    }

    public boolean now() {
        return Boolean.TRUE.equals(FORCED.get()) || System.nanoTime() - until < 0;
    }

    /** Runs {@code work} with this thread's handlers careful, e.g. the retry of a parked sequence. */
    public static <T> T during(Callable<T> work) throws Exception {
        Boolean previous = FORCED.get();
        FORCED.set(true);
        try {
            return work.call();
        } finally {
            if (previous == null) {
                FORCED.remove();
            } else {
                FORCED.set(previous);
            }
        }
    }
}
