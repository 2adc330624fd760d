package ai.convo.http.web;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Schedulers;

/**
 * At most {@code permits} units of work at once per key (an organisation), without blocking a thread: the rest wait
 * in line, at most {@code maxWaiting} of them and each at most {@code maxWait}, then are refused. What one key does
 * never takes a permit of another, so one organisation's burst cannot occupy what every organisation shares.
 */
public final class KeyedBulkhead {

    /** The work was refused: the key's line was full, or the wait ran out. */
    public static final class Full extends RuntimeException {
        Full(String message) {
            super(message, null, false, false);
        }
    }

    private static final class Gate {
        int inFlight;
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
    }

    private static final class Waiter {
        final MonoSink<Void> sink;
        boolean granted;
        boolean cancelled;

        Waiter(MonoSink<Void> sink) {
            this.sink = sink;
        }
    }

    private final int permits;
    private final int maxWaiting;
    private final Duration maxWait;
    private final Map<String, Gate> gates = new ConcurrentHashMap<>();

    public KeyedBulkhead(int permits, int maxWaiting, Duration maxWait) {
        if (permits < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("permits must be at least 1 and maxWaiting at least 0");
        }
        this.permits = permits;
        this.maxWaiting = maxWaiting;
        this.maxWait = maxWait;
    }

    public int permits() {
        return permits;
    }

    /** Runs {@code work} once {@code key} has a permit; the permit is given back when it ends, however it ends. */
    public <T> Mono<T> run(String key, Mono<T> work) {
        return Mono.usingWhen(acquire(key), ignored -> work, ignored -> release(key), (ignored, error) -> release(key),
                ignored -> release(key));
    }

    /** How many units of work of {@code key} hold a permit now. */
    public int inFlight(String key) {
        Gate gate = gates.get(key);
        if (gate == null) {
            return 0;
        }
        synchronized (gate) {
            return gate.inFlight;
        }
    }

    private Mono<Boolean> acquire(String key) {
        return Mono.<Void>create(sink -> {
            Gate gate = gates.computeIfAbsent(key, k -> new Gate());
            Waiter waiter = new Waiter(sink);
            sink.onCancel(() -> abandon(key, gate, waiter));
            String full = null;
            synchronized (gate) {
                if (waiter.cancelled) {
                    return;
                }
                if (gate.inFlight < permits) {
                    gate.inFlight++;
                    waiter.granted = true;
                } else if (gate.waiting.size() < maxWaiting) {
                    gate.waiting.add(waiter);
                    // the wait ends under the gate's lock, so a permit is either handed to this waiter or not at all
                    sink.onDispose(Schedulers.parallel().schedule(() -> expire(gate, waiter), maxWait.toNanos(),
                            TimeUnit.NANOSECONDS));
                    return;
                } else {
                    full = "all " + permits + " permits are taken and " + maxWaiting + " wait in line";
                }
            }
            if (full != null) {
                sink.error(new Full(full));
            } else {
                sink.success();
            }
        }).thenReturn(true);
    }

    private void expire(Gate gate, Waiter waiter) {
        boolean expired;
        synchronized (gate) {
            expired = gate.waiting.remove(waiter);
        }
        if (expired) {
            waiter.sink.error(new Full("no permit became free within " + maxWait.toMillis() + " ms; all " + permits
                    + " were taken"));
        }
    }

    /** A waiter that went away (timed out, or its client left): out of line, or the permit it was given passed on. */
    private void abandon(String key, Gate gate, Waiter waiter) {
        boolean holdsPermit;
        synchronized (gate) {
            waiter.cancelled = true;
            holdsPermit = !gate.waiting.remove(waiter) && waiter.granted;
        }
        if (holdsPermit) {
            release(key).subscribe();
        }
    }

    private Mono<Void> release(String key) {
        return Mono.fromRunnable(() -> {
            Gate gate = gates.get(key);
            Waiter next;
            synchronized (gate) {
                next = gate.waiting.poll();
                if (next == null) {
                    gate.inFlight--;
                    return;
                }
                next.granted = true;
            }
            // the permit moves to the next in line (inFlight stays); success() on a sink cancelled meanwhile is a
            // no-op, and its cancel handler then finds it out of line and granted, and passes the permit on
            next.sink.success();
        });
    }

}
