package ai.convo.persistence;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Look-ups by key that are coalesced, not cached: while one statement is in flight, every look-up that arrives
 * waits for the next, which answers all of them in one round trip. Each statement starts after every look-up it
 * answers was asked, so an answer is never older than its request (what a current-state check needs); under load
 * one statement serves many requests.
 */
public final class CoalescedLookup<K, V> {

    private record Pending<K, V>(K key, MonoSink<V> sink) {
    }

    private final Function<Set<K>, Mono<Map<K, V>>> lookup;
    private final Queue<Pending<K, V>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inFlight = new AtomicBoolean();

    /** {@code lookup}: the values found for some keys (a key without one is absent from the map). */
    public CoalescedLookup(Function<Set<K>, Mono<Map<K, V>>> lookup) {
        this.lookup = lookup;
    }

    /** The value under {@code key}, looked up after this call; empty when there is none. */
    public Mono<V> of(K key) {
        return Mono.create(sink -> {
            queue.add(new Pending<>(key, sink));
            drain();
        });
    }

    private void drain() {
        while (!queue.isEmpty() && inFlight.compareAndSet(false, true)) {
            List<Pending<K, V>> batch = new ArrayList<>();
            for (Pending<K, V> next; (next = queue.poll()) != null; ) {
                batch.add(next);
            }
            if (batch.isEmpty()) {
                inFlight.set(false);
                continue;
            }
            Set<K> keys = new LinkedHashSet<>();
            batch.forEach(pending -> keys.add(pending.key()));
            Mono<Map<K, V>> found;
            try {
                found = lookup.apply(keys);
            } catch (RuntimeException error) {
                found = Mono.error(error);
            }
            found.defaultIfEmpty(Map.of()).subscribe(values -> answer(batch, values), error -> fail(batch, error));
            return;
        }
    }

    private void answer(List<Pending<K, V>> batch, Map<K, V> values) {
        inFlight.set(false);
        // the next statement goes out before this batch's requests run on, as in the consistency look-up
        drain();
        for (Pending<K, V> pending : batch) {
            V value = values.get(pending.key());
            if (value == null) {
                pending.sink().success();
            } else {
                pending.sink().success(value);
            }
        }
    }

    private void fail(List<Pending<K, V>> batch, Throwable error) {
        inFlight.set(false);
        drain();
        batch.forEach(pending -> pending.sink().error(error));
    }
}
