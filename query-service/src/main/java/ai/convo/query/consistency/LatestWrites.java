package ai.convo.query.consistency;

import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * The newest write recorded under some principal keys ({@code principal_write}, written in each command's own
 * transaction). A lookup must start after the read asking for it arrived, or it could miss a write acknowledged just
 * before; so lookups are not cached, but coalesced: while one query is in flight, every read that arrives waits for
 * the next one, which answers all of them in one round trip. Under load a query serves many reads. A read by API key
 * asks for its key's principal in the same look-up ({@link #ofApiKey}), so it costs one round trip, not two.
 */
@Component
class LatestWrites {

    /** A read's look-up: of its principal keys, or of its API key (then {@code keyHash}, and the answer's principal). */
    private record Pending(List<String> keys, String keyHash, MonoSink<Newest> sink, MonoSink<Keyed> keyed) {
    }

    /** An active API key's principal and that principal's newest write. */
    public record Keyed(ApiPrincipal principal, Newest newest) {
    }

    /** The highest position recorded under a read's keys (0: none), and what its look-up found of the gaps. */
    public record Newest(long position, CheckedGaps gaps) {
    }

    private final DatabaseClient db;
    private final ConsistencyChannel channel;
    private final ProjectionProgress progress;
    private final Queue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inFlight = new AtomicBoolean();

    public LatestWrites(DatabaseClient db, ConsistencyChannel channel, ProjectionProgress progress) {
        this.db = db;
        this.channel = channel;
        this.progress = progress;
    }

    /** The highest position recorded under any of the keys (0 when none has written), and the gaps checked. */
    public Mono<Newest> of(List<String> keys) {
        if (keys.isEmpty()) {
            return Mono.just(new Newest(0, CheckedGaps.NONE));
        }
        return Mono.create(sink -> {
            queue.add(new Pending(keys, null, sink, null));
            drain();
        });
    }

    /**
     * The principal of an active API key and its newest write (its user id is its key), in the look-up of the other
     * reads waiting; empty when no active key has this hash.
     */
    public Mono<Keyed> ofApiKey(String keyHash) {
        return Mono.create(sink -> {
            queue.add(new Pending(List.of(), keyHash, null, sink));
            drain();
        });
    }

    private void drain() {
        while (!queue.isEmpty() && inFlight.compareAndSet(false, true)) {
            List<Pending> batch = new ArrayList<>();
            for (Pending next; (next = queue.poll()) != null; ) {
                batch.add(next);
            }
            if (batch.isEmpty()) {
                inFlight.set(false);
                continue;
            }
            Set<String> keys = new LinkedHashSet<>();
            Set<String> keyHashes = new LinkedHashSet<>();
            for (Pending pending : batch) {
                keys.addAll(pending.keys());
                if (pending.keyHash() != null) {
                    keyHashes.add(pending.keyHash());
                }
            }
            String[] wanted = keys.toArray(String[]::new);
            String[] hashes = keyHashes.toArray(String[]::new);
            Long[] gaps = progress.openGaps();
            // Through the consistency channel, which also brings every cache invalidation committed before; through
            // the pool while it is down (and nothing is cached then).
            channel.newest(wanted, gaps, hashes)
                    .onErrorResume(error -> Mono.empty())
                    .switchIfEmpty(Mono.defer(() -> overPool(wanted, gaps, hashes)))
                    .subscribe(found -> answer(batch, gaps, found), error -> fail(batch, error));
            return;
        }
    }

    private Mono<ConsistencyChannel.Found> overPool(String[] keys, Long[] gaps, String[] keyHashes) {
        return db.sql(ConsistencyChannel.LOOKUP.replace("$1::text[]", "CAST(:keys AS text[])")
                        .replace("$2::bigint[]", "CAST(:gaps AS bigint[])")
                        .replace("$3::char(64)[]", "CAST(:hashes AS char(64)[])"))
                .bind("keys", keys)
                .bind("gaps", gaps)
                .bind("hashes", keyHashes)
                .map(ConsistencyChannel.Row::of)
                .all()
                .collectList()
                .map(ConsistencyChannel::found);
    }

    private void answer(List<Pending> batch, Long[] gaps, ConsistencyChannel.Found found) {
        inFlight.set(false);
        // The next look-up goes out first: answering runs each read of this batch on this thread, and the reads that
        // arrived meanwhile should not wait for all of that before their own look-up even starts.
        drain();
        Set<Long> absent = new HashSet<>();
        for (Long gap : gaps) {
            if (!found.filled().contains(gap)) {
                absent.add(gap);
            }
        }
        CheckedGaps checked = progress.checked(absent);
        Map<String, Long> positions = found.newest();
        for (Pending pending : batch) {
            if (pending.keyHash() != null) {
                ApiPrincipal principal = found.byKeyHash().get(pending.keyHash());
                if (principal == null) {
                    pending.keyed().success();
                } else {
                    pending.keyed().success(new Keyed(principal,
                            new Newest(positions.getOrDefault(principal.userId(), 0L), checked)));
                }
                continue;
            }
            long newest = 0;
            for (String key : pending.keys()) {
                newest = Math.max(newest, positions.getOrDefault(key, 0L));
            }
            pending.sink().success(new Newest(newest, checked));
        }
    }

    private void fail(List<Pending> batch, Throwable error) {
        inFlight.set(false);
        drain();
        batch.forEach(pending -> {
            if (pending.keyed() != null) {
                pending.keyed().error(error);
            } else {
                pending.sink().error(error);
            }
        });
    }
}
