package ai.convo.persistence;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells whether something cached is still current, from PostgreSQL change notifications on one channel. Take a
 * {@link #stamp} before reading what is to be cached; the cached value is {@link #valid} while no notification
 * for one of its tags (or a bare one, for everything) arrived since. A change that commits while the value is
 * read therefore invalidates it even if it slipped into the read. Nothing is cached while not listening.
 */
public final class CacheValidity implements EventNotifications.ChangeListener {

    /** The state of a cached value's tags when it was read. */
    public record Stamp(long epoch, String[] tags, long[] generations) {
    }

    /** Tags remembered at most; beyond it they are forgotten all at once, which invalidates everything. */
    static final int MAX_TAGS = 100_000;

    private final String channel;
    private final AtomicLong epoch = new AtomicLong();
    private final ConcurrentHashMap<String, AtomicLong> generations = new ConcurrentHashMap<>();
    private volatile boolean listening;

    public CacheValidity(String channel, ChangeNotifications notifications) {
        this.channel = channel;
        this.listening = notifications.listening();
        notifications.subscribe(this);
    }

    /** The current state of these tags, or null when nothing may be cached now. */
    public Stamp stamp(String... tags) {
        if (!listening) {
            return null;
        }
        long at = epoch.get();
        long[] seen = new long[tags.length];
        for (int i = 0; i < tags.length; i++) {
            AtomicLong generation = generations.get(tags[i]);
            seen[i] = generation == null ? 0 : generation.get();
        }
        return new Stamp(at, tags, seen);
    }

    public boolean valid(Stamp stamp) {
        if (stamp == null || !listening || stamp.epoch() != epoch.get()) {
            return false;
        }
        for (int i = 0; i < stamp.tags().length; i++) {
            AtomicLong generation = generations.get(stamp.tags()[i]);
            if ((generation == null ? 0 : generation.get()) != stamp.generations()[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void changed(String channel, String payload) {
        if (!this.channel.equals(channel)) {
            return;
        }
        if (payload == null || payload.isEmpty()) {
            epoch.incrementAndGet();
            return;
        }
        if (generations.size() >= MAX_TAGS) {
            // Bump first: a stamp taken across the clear then fails on the epoch, never matches a reset tag.
            epoch.incrementAndGet();
            generations.clear();
        }
        generations.computeIfAbsent(payload, tag -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void listening(boolean listening) {
        this.listening = listening;
        epoch.incrementAndGet();
    }
}
