package ai.convo.persistence;

import ai.convo.http.audit.Refusal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Decides which refusals become rows, so a flood fills neither the log nor the database: at most one row per source
 * (remote address, status, and organisation, else e-mail, else scheme) per window, and at most so many rows a second
 * in all. A row stands for itself and {@code repeated} refusals of its source held back before it. Not thread-safe:
 * {@link RefusedRequests} serialises the calls.
 */
final class RefusalThrottle {

    /** A refusal to write, and how many of its source's refusals were held back since the previous row. */
    record Row(Refusal refusal, int repeated) {
    }

    private static final long NO_WINDOW = Long.MIN_VALUE;

    private static final class Source {
        long windowStart = NO_WINDOW;
        int heldBack;
        Refusal last;
    }

    private final LongSupplier clock;
    private final long windowMillis;
    private final int maxRowsPerSecond;
    private final Map<String, Source> sources;
    private long second = Long.MIN_VALUE;
    private int rowsThisSecond;
    private long lost;

    RefusalThrottle(LongSupplier clock, long windowMillis, int maxSources, int maxRowsPerSecond) {
        this.clock = clock;
        this.windowMillis = windowMillis;
        this.maxRowsPerSecond = maxRowsPerSecond;
        // Access order: the source evicted when there are too many is the one quiet the longest.
        this.sources = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Source> eldest) {
                if (size() <= maxSources) {
                    return false;
                }
                lost += eldest.getValue().heldBack;
                return true;
            }
        };
    }

    static String source(Refusal refusal) {
        String who = refusal.organisationId() != null ? "org:" + refusal.organisationId()
                : refusal.email() != null ? "email:" + refusal.email()
                : "scheme:" + refusal.scheme();
        return refusal.remoteAddress() + "|" + refusal.status() + "|" + who;
    }

    /** The row to write for this refusal, or null when it is held back (counted in its source's next row). */
    Row offer(Refusal refusal) {
        long now = clock.getAsLong();
        Source source = sources.computeIfAbsent(source(refusal), key -> new Source());
        if (within(source, now) || !budget(now)) {
            source.heldBack++;
            source.last = refusal;
            return null;
        }
        Row row = new Row(refusal, source.heldBack);
        restart(source, now);
        return row;
    }

    /**
     * The rows of sources with refusals held back whose window is over ({@code all}: whatever their window), each
     * carrying the source's last refusal; so the end of a flood is counted without waiting for its source's next
     * refusal. Forgets sources quiet for a window.
     */
    List<Row> due(boolean all) {
        long now = clock.getAsLong();
        List<Row> rows = new ArrayList<>();
        Iterator<Source> it = sources.values().iterator();
        while (it.hasNext()) {
            Source source = it.next();
            boolean over = !within(source, now);
            if (source.heldBack == 0) {
                if (over) {
                    it.remove();
                }
            } else if ((over || all) && budget(now)) {
                rows.add(new Row(source.last, source.heldBack - 1));
                restart(source, now);
            }
        }
        return rows;
    }

    /** Refusals that were held back and then forgotten with their source (more sources than are kept). */
    long lost() {
        return lost;
    }

    private boolean within(Source source, long now) {
        return source.windowStart != NO_WINDOW && now - source.windowStart < windowMillis;
    }

    private static void restart(Source source, long now) {
        source.windowStart = now;
        source.heldBack = 0;
        source.last = null;
    }

    private boolean budget(long now) {
        long current = Math.floorDiv(now, 1000L);
        if (current != second) {
            second = current;
            rowsThisSecond = 0;
        }
        if (rowsThisSecond >= maxRowsPerSecond) {
            return false;
        }
        rowsThisSecond++;
        return true;
    }
}
