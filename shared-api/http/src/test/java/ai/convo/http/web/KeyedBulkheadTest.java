package ai.convo.http.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

class KeyedBulkheadTest {

    @Test
    void givenTwoPermits_whenFiveArrive_thenTwoRunAndTheRestFollowInTurnWhileAnotherKeyRunsAtOnce() {
        KeyedBulkhead bulkhead = new KeyedBulkhead(2, 10, Duration.ofSeconds(30));
        List<Sinks.One<String>> ends = new ArrayList<>();
        List<String> done = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Sinks.One<String> end = Sinks.one();
            ends.add(end);
            bulkhead.run("a", end.asMono()).subscribe(done::add);
        }
        assertThat(bulkhead.inFlight("a")).isEqualTo(2);
        // another organisation is not in a's line
        assertThat(bulkhead.run("b", Mono.just("b")).block()).isEqualTo("b");
        ends.get(0).tryEmitValue("0");
        assertThat(bulkhead.inFlight("a")).isEqualTo(2);
        ends.forEach(end -> end.tryEmitValue("x"));
        assertThat(done).hasSize(5);
        assertThat(bulkhead.inFlight("a")).isZero();
    }

    @Test
    void givenAFullLine_whenOneMoreArrives_thenItIsRefusedAtOnce() {
        KeyedBulkhead bulkhead = new KeyedBulkhead(1, 1, Duration.ofSeconds(30));
        bulkhead.run("a", Mono.never()).subscribe();
        bulkhead.run("a", Mono.never()).subscribe();
        AtomicInteger refused = new AtomicInteger();
        bulkhead.run("a", Mono.just(1)).subscribe(x -> { }, e -> refused.incrementAndGet());
        assertThat(refused).hasValue(1);
    }

    @Test
    void givenAWaitThatRunsOut_whenRefused_thenNoPermitIsLost() {
        KeyedBulkhead bulkhead = new KeyedBulkhead(1, 5, Duration.ofMillis(50));
        Sinks.One<Integer> end = Sinks.one();
        bulkhead.run("a", end.asMono()).subscribe();
        Throwable refusal = bulkhead.run("a", Mono.just(1)).materialize().block().getThrowable();
        assertThat(refusal).isInstanceOf(KeyedBulkhead.Full.class).hasMessageContaining("within 50 ms");
        end.tryEmitValue(1);
        assertThat(bulkhead.inFlight("a")).isZero();
        assertThat(bulkhead.run("a", Mono.just(2)).block()).isEqualTo(2);
    }

    @Test
    void givenManyConcurrentRunsCancelsAndTimeouts_whenAllEnd_thenNeverMoreThanThePermitsRanAndNoneIsLeft() {
        KeyedBulkhead bulkhead = new KeyedBulkhead(3, 50, Duration.ofMillis(20));
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Disposable> all = new ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 2_000; i++) {
            int pause = random.nextInt(3);
            boolean cancel = random.nextInt(5) == 0;
            // only work that is never cancelled is counted: a cancel races with the work's own start on another thread
            Mono<Integer> work = cancel ? Mono.just(1).delayElement(Duration.ofMillis(pause), Schedulers.parallel())
                    : Mono.fromCallable(() -> {
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        return 1;
                    }).delayElement(Duration.ofMillis(pause), Schedulers.parallel()).doOnTerminate(running::decrementAndGet); // before the end reaches the bulkhead
            Disposable run = bulkhead.run("a", work).subscribeOn(Schedulers.parallel()).subscribe(x -> { }, e -> { });
            if (cancel) {
                Schedulers.parallel().schedule(run::dispose, random.nextInt(3), java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            all.add(run);
        }
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!all.stream().allMatch(Disposable::isDisposed) && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        Mono.delay(Duration.ofMillis(100)).block(); // cancelled work's own ends
        assertThat(most.get()).isLessThanOrEqualTo(3);
        assertThat(bulkhead.inFlight("a")).isZero();
    }
}
