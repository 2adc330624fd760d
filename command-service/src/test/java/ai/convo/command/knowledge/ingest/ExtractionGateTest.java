package ai.convo.command.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The reader's turns: one parse per organisation, a bounded number in all, another organisation never behind a queue. */
class ExtractionGateTest {

    private static CompletableFuture<Boolean> enter(ExtractionGate gate, String organisation) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return gate.enter(organisation, 10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Until {@code count} callers wait at the gate (each one's place in the queue is then fixed). */
    private static void awaitWaiting(ExtractionGate gate, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gate.waiting() != count) {
            assertThat(System.nanoTime()).as("waiters never reached %d", count).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void givenAnOrganisationParsing_whenItAndAnotherAsk_thenTheOtherGoesAtOnceAndItsOwnWaits() throws Exception {
        // given
        ExtractionGate gate = new ExtractionGate(2);
        assertThat(gate.enter("a", 1, TimeUnit.SECONDS)).isTrue();
        // when
        CompletableFuture<Boolean> secondOfA = enter(gate, "a");
        boolean b = gate.enter("b", 1, TimeUnit.SECONDS);
        // then
        assertThat(b).isTrue();
        awaitWaiting(gate, 1);
        assertThat(secondOfA).isNotDone();
        gate.leave("a");
        assertThat(secondOfA.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void givenAllSlotsTaken_whenAThirdOrganisationAsks_thenItWaitsForOneAndTimesOutWithoutIt() throws Exception {
        // given
        ExtractionGate gate = new ExtractionGate(2);
        gate.enter("a", 1, TimeUnit.SECONDS);
        gate.enter("b", 1, TimeUnit.SECONDS);
        // when / then
        assertThat(gate.enter("c", 100, TimeUnit.MILLISECONDS)).isFalse();
        CompletableFuture<Boolean> c = enter(gate, "c");
        awaitWaiting(gate, 1);
        assertThat(c).isNotDone();
        gate.leave("b");
        assertThat(c.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(gate.parsing()).isEqualTo(2);
    }

    @Test
    void givenOneSlotAndAQueueOfOneOrganisation_whenAnotherAsksLater_thenItGoesBeforeTheQueuesRest() throws Exception {
        // given: a parses, a's second document waits
        ExtractionGate gate = new ExtractionGate(1);
        gate.enter("a", 1, TimeUnit.SECONDS);
        CompletableFuture<Boolean> secondOfA = enter(gate, "a");
        awaitWaiting(gate, 1);
        CompletableFuture<Boolean> b = enter(gate, "b");
        awaitWaiting(gate, 2);
        // when
        gate.leave("a");
        // then: the earliest waiter goes (a's second), b next, then nothing else of a ahead of b
        assertThat(secondOfA.get(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> thirdOfA = enter(gate, "a");
        awaitWaiting(gate, 2);
        gate.leave("a");
        assertThat(b.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(thirdOfA).isNotDone();
        gate.leave("b");
        assertThat(thirdOfA.get(5, TimeUnit.SECONDS)).isTrue();
    }
}
