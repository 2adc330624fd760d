package ai.convo.query.readmodel;

/**
 * Whether this thread's handlers are filling a rebuild's copies of their tables. No row history is kept there (it is
 * stamped by the live processors only) and no reader sees a copy before its switch, so a projection may fold several
 * changes of one row within a transaction into one write, as a bulk loader would.
 */
public final class Rebuilding {

    private static final ThreadLocal<Boolean> NOW = new ThreadLocal<>();

    private Rebuilding() {
    }

    public static boolean now() {
        return Boolean.TRUE.equals(NOW.get());
    }

    /** Runs {@code work} with this thread's handlers filling a rebuild. */
    public static void during(Runnable work) {
        Boolean previous = NOW.get();
        NOW.set(true);
        try {
            work.run();
        } finally {
            if (previous == null) {
                NOW.remove();
            } else {
                NOW.set(previous);
            }
        }
    }
}
