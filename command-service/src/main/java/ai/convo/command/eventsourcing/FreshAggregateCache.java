package ai.convo.command.eventsourcing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventsourcing.AggregateCacheEntry;
import org.axonframework.eventsourcing.eventstore.EventStore;

/**
 * The aggregates this replica decided on last, kept in memory so a command does not load its aggregate from the
 * store. Several command replicas write one event store, so a cached aggregate may be behind: before one is handed
 * out, its version is compared with the newest sequence number stored for it (one indexed query, in the command's
 * transaction), and a stale one is dropped and loaded anew (snapshot and the events after it). A decision, a refusal
 * included, is therefore always taken on the latest committed state. An append that still races another replica
 * fails on the sequence number, rolls back (which evicts the entry) and is decided again.
 * Least recently used entries go first beyond {@code capacity}; entries are soft references, so a heap under
 * pressure drops aggregates (to be loaded again) before it runs out.
 */
public class FreshAggregateCache implements Cache {

    private static final VarHandle VERSION;

    static {
        try {
            VERSION = MethodHandles.privateLookupIn(AggregateCacheEntry.class, MethodHandles.lookup())
                    .findVarHandle(AggregateCacheEntry.class, "version", Long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final EventStore eventStore;
    private final Map<Object, SoftReference<Object>> entries;

    public FreshAggregateCache(EventStore eventStore, int capacity) {
        this.eventStore = eventStore;
        this.entries = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Object, SoftReference<Object>> eldest) {
                return size() > capacity;
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> V get(K key) {
        SoftReference<Object> reference;
        synchronized (entries) {
            reference = entries.get(key);
        }
        Object value = reference == null ? null : reference.get();
        if (reference != null && (value == null
                || value instanceof AggregateCacheEntry<?> entry && !current(key.toString(), entry))) {
            remove(key, reference);
            return null;
        }
        return (V) value;
    }

    /** Whether the store holds no event of the aggregate newer than the cached version. */
    private boolean current(String aggregateId, AggregateCacheEntry<?> entry) {
        Long cached = (Long) VERSION.get(entry);
        Optional<Long> stored = eventStore.lastSequenceNumberFor(aggregateId);
        return cached != null && stored.isPresent() && stored.get().equals(cached);
    }

    private void remove(Object key, SoftReference<Object> value) {
        synchronized (entries) {
            entries.remove(key, value);
        }
    }

    @Override
    public void put(Object key, Object value) {
        synchronized (entries) {
            entries.put(key, new SoftReference<>(value));
        }
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        synchronized (entries) {
            SoftReference<Object> current = entries.get(key);
            if (current != null && current.get() != null) {
                return false;
            }
            entries.put(key, new SoftReference<>(value));
            return true;
        }
    }

    @Override
    public boolean remove(Object key) {
        synchronized (entries) {
            return entries.remove(key) != null;
        }
    }

    @Override
    public void removeAll() {
        synchronized (entries) {
            entries.clear();
        }
    }

    @Override
    public boolean containsKey(Object key) {
        synchronized (entries) {
            SoftReference<Object> reference = entries.get(key);
            return reference != null && reference.get() != null;
        }
    }

    @Override
    public Registration registerCacheEntryListener(EntryListener cacheEntryListener) {
        // Nothing listens to aggregate entries; the repository does not register listeners.
        return () -> true;
    }
}
