package ai.convo.command.eventsourcing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventsourcing.AggregateCacheEntry;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The aggregates this replica decided on last, kept in memory so a command does not load its aggregate from the
 * store. Several command replicas write one event store, so a cached aggregate may be behind. A command that appends
 * to it finds out on its append, which collides with the stored sequence number, rolls back (which evicts the entry)
 * and is decided again. One that appends nothing to it compares its version with the newest sequence number stored
 * (one indexed query, in the command's transaction) when it ends, and is decided again if it was behind
 * ({@link CachedDecisions}); outside a command, the comparison is made before the entry is handed out. A decision, a
 * refusal included, therefore always stands on the latest committed state.
 * Least recently used entries go first beyond {@code capacity}; entries are soft references, so a heap under
 * pressure drops aggregates (to be loaded again) before it runs out.
 */
class FreshAggregateCache implements Cache {

    private static final VarHandle VERSION;

    static {
        try {
            VERSION = MethodHandles.privateLookupIn(AggregateCacheEntry.class, MethodHandles.lookup())
                    .findVarHandle(AggregateCacheEntry.class, "version", Long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How many commands check an aggregate at once after it was found behind the store. */
    static final int CHECKS_AFTER_STALE = 16;
    private static final int CONTENDED_LIMIT = 50_000;

    private final EventStore eventStore;
    private final Map<Object, SoftReference<Object>> entries;
    /** Aggregates found behind the store lately, and how many more commands check them before they are handed out. */
    private final Map<Object, Integer> contended = new java.util.concurrent.ConcurrentHashMap<>();

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
        Map<Object, Object> uncommitted = uncommitted(false);
        if (uncommitted != null && uncommitted.containsKey(key)) {
            // this transaction's own version: the store holds it for this transaction, and nobody else can append
            // past it before this transaction ends
            return (V) uncommitted.get(key);
        }
        SoftReference<Object> reference;
        synchronized (entries) {
            reference = entries.get(key);
        }
        Object value = reference == null ? null : reference.get();
        if (reference == null) {
            return null;
        }
        if (value == null) {
            remove(key, reference);
            return null;
        }
        if (value instanceof AggregateCacheEntry<?> entry) {
            boolean writtenElsewhere = contended.containsKey(key);
            if (writtenElsewhere || !CachedDecisions.deferred(key, (Long) VERSION.get(entry))) {
                if (!current(key.toString(), entry)) {
                    behindTheStore(key);
                    return null;
                }
                if (writtenElsewhere) {
                    contended.computeIfPresent(key, (k, left) -> left > 1 ? left - 1 : null);
                }
            }
        }
        return (V) value;
    }

    /**
     * A cached aggregate found behind the store (another replica wrote it): dropped, and checked before it is handed
     * out for the next {@link #CHECKS_AFTER_STALE} commands. Leaving the check to a command's end pays only while the
     * cache is current: a stale aggregate's append collides, rolls back and is decided again, which costs more than
     * the check (replicas that take turns on one aggregate would pay that every other command).
     */
    void behindTheStore(Object key) {
        synchronized (entries) {
            entries.remove(key);
        }
        if (contended.size() >= CONTENDED_LIMIT) {
            contended.clear();
        }
        contended.put(key, CHECKS_AFTER_STALE);
    }

    /**
     * What the current transaction cached: kept apart until it commits, so the shared entries never hold events that
     * are not committed. Several commands may share one transaction (a batch): one that ended before the transaction
     * rolls back must not leave its version behind for others, who check only what they append nothing to.
     */
    @SuppressWarnings("unchecked")
    private Map<Object, Object> uncommitted(boolean create) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return null;
        }
        Map<Object, Object> uncommitted = (Map<Object, Object>) TransactionSynchronizationManager.getResource(this);
        if (uncommitted == null && create) {
            Map<Object, Object> created = new HashMap<>();
            TransactionSynchronizationManager.bindResource(this, created);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void suspend() {
                    TransactionSynchronizationManager.unbindResource(FreshAggregateCache.this);
                }

                @Override
                public void resume() {
                    TransactionSynchronizationManager.bindResource(FreshAggregateCache.this, created);
                }

                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(FreshAggregateCache.this);
                    synchronized (entries) {
                        created.forEach((key, value) -> {
                            if (status == STATUS_COMMITTED) {
                                entries.put(key, new SoftReference<>(value));
                            } else {
                                entries.remove(key);
                            }
                        });
                    }
                }
            });
            uncommitted = created;
        }
        return uncommitted;
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
        Map<Object, Object> uncommitted = uncommitted(true);
        if (uncommitted != null) {
            uncommitted.put(key, value);
            return;
        }
        synchronized (entries) {
            entries.put(key, new SoftReference<>(value));
        }
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        Map<Object, Object> uncommitted = uncommitted(true);
        if (uncommitted != null) {
            if (containsKey(key)) {
                return false;
            }
            uncommitted.put(key, value);
            return true;
        }
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
        Map<Object, Object> uncommitted = uncommitted(false);
        boolean removed = uncommitted != null && uncommitted.remove(key) != null;
        synchronized (entries) {
            return entries.remove(key) != null || removed;
        }
    }

    @Override
    public void removeAll() {
        Map<Object, Object> uncommitted = uncommitted(false);
        if (uncommitted != null) {
            uncommitted.clear();
        }
        synchronized (entries) {
            entries.clear();
        }
    }

    @Override
    public boolean containsKey(Object key) {
        Map<Object, Object> uncommitted = uncommitted(false);
        if (uncommitted != null && uncommitted.containsKey(key)) {
            return true;
        }
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
