package ai.convo.command.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Commands of one aggregate run one at a time, in order of arrival; other aggregates' do not wait for them. */
class AggregateTurnsTest {

    private final AggregateTurns turns = new AggregateTurns();
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void givenTwentyCommandsOfOneAggregate_whenSentAtOnce_thenTheyRunOneAtATimeInOrderOfArrival() {
        // given
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        // when
        List<CompletableFuture<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int index = i;
            results.add(turns.run("aggregate", () -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                order.add(index);
                running.decrementAndGet();
                return index;
            }, threads, threads));
        }
        // then
        assertThat(results.stream().map(CompletableFuture::join).toList()).hasSize(20);
        assertThat(most.get()).isEqualTo(1);
        assertThat(order).isSorted();
        assertThat(turns.busy()).isZero();
    }

    @Test
    void givenACommandRunningOnOneAggregate_whenAnotherAggregateGetsOne_thenItDoesNotWait() throws Exception {
        // given
        CountDownLatch gate = new CountDownLatch(1);
        CompletableFuture<String> blocked = turns.run("busy", () -> {
            await(gate);
            return "busy";
        }, threads, threads);
        CompletableFuture<String> queued = turns.run("busy", () -> "after", threads, threads);
        // when
        String other = turns.run("other", () -> "other", threads, threads).get(5, TimeUnit.SECONDS);
        // then
        assertThat(other).isEqualTo("other");
        assertThat(queued).isNotDone();
        gate.countDown();
        assertThat(queued.get(5, TimeUnit.SECONDS)).isEqualTo("after");
        assertThat(blocked.join()).isEqualTo("busy");
    }

    @Test
    void givenAFailedOrRefusedCommand_whenTheNextComes_thenItRuns() throws Exception {
        // given a command that failed, and one the executor refused
        CompletableFuture<String> failed = turns.run("aggregate", () -> {
            throw new IllegalStateException("refused");
        }, threads, threads);
        // refused on either path: the failed command may already have ended when this one arrives
        java.util.concurrent.Executor full = task -> {
            throw new RejectedExecutionException("full");
        };
        CompletableFuture<String> rejected = turns.run("aggregate", () -> "never", full, full);
        // when
        String next = turns.run("aggregate", () -> "next", threads, threads).get(5, TimeUnit.SECONDS);
        // then
        assertThat(next).isEqualTo("next");
        assertThatThrownBy(failed::join).isInstanceOf(CompletionException.class).hasRootCauseMessage("refused");
        assertThatThrownBy(rejected::join).hasRootCauseMessage("full");
        assertThat(turns.busy()).isZero();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
