package ai.convo.persistence;

import java.util.concurrent.Callable;

/**
 * Whose writes a thread's appends are: the comma-separated principal keys ({@link PrincipalKeys}) under which the
 * append trigger (V5, V8) records them in {@code principal_write}, so that the principal's reads on any query replica
 * wait for them. The keys travel in the append statement itself ({@link AppendedPositions}): naming the principal in
 * a statement of its own cost every command a round trip to the database.
 */
public final class AppendingPrincipal {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private AppendingPrincipal() {
    }

    /** Runs {@code work} with this thread's appends recorded under these keys (none when blank). */
    public static <T> T as(String keys, Callable<T> work) throws Exception {
        String previous = CURRENT.get();
        CURRENT.set(keys);
        try {
            return work.call();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** The keys this thread's appends are recorded under now, or null when none. */
    static String current() {
        String keys = CURRENT.get();
        return keys == null || keys.isBlank() ? null : keys;
    }
}
