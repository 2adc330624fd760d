package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** Look-ups that share statements: never an answer from before the request, one statement for all that waited. */
class CoalescedLookupTest {

    /** A statement the test answers by hand: the keys it was asked for, and its pending answer. */
    private record Statement(Set<String> keys, Sinks.One<Map<String, Integer>> answer) {
    }

    private final List<Statement> statements = new ArrayList<>();
    private final CoalescedLookup<String, Integer> lookup = new CoalescedLookup<>(keys -> {
        Sinks.One<Map<String, Integer>> answer = Sinks.one();
        statements.add(new Statement(Set.copyOf(keys), answer));
        return answer.asMono();
    });

    @Test
    void aLookUpAskedWhileAStatementIsInFlightWaitsForTheNextOne() {
        // given: a statement in flight for key a
        AtomicReference<Integer> first = new AtomicReference<>();
        lookup.of("a").subscribe(first::set);
        assertThat(statements).hasSize(1);

        // when: b and c are asked meanwhile, and the state changes before the first statement answers
        AtomicReference<Integer> second = new AtomicReference<>();
        AtomicReference<Integer> third = new AtomicReference<>();
        lookup.of("b").subscribe(second::set);
        lookup.of("a").subscribe(third::set);
        statements.get(0).answer().tryEmitValue(Map.of("a", 1, "b", 1));

        // then: the first statement answers only the look-up made before it; one new statement serves both others
        assertThat(first.get()).isEqualTo(1);
        assertThat(second.get()).isNull();
        assertThat(third.get()).isNull();
        assertThat(statements).hasSize(2);
        assertThat(statements.get(1).keys()).containsExactlyInAnyOrder("a", "b");
        statements.get(1).answer().tryEmitValue(Map.of("a", 2, "b", 2));
        assertThat(second.get()).isEqualTo(2);
        assertThat(third.get()).isEqualTo(2);
    }

    @Test
    void aKeyTheStatementDidNotFindIsEmpty() {
        AtomicReference<String> outcome = new AtomicReference<>("pending");
        lookup.of("gone").map(String::valueOf).defaultIfEmpty("empty").subscribe(outcome::set);

        statements.get(0).answer().tryEmitValue(Map.of("other", 1));

        assertThat(outcome.get()).isEqualTo("empty");
    }

    @Test
    void aFailedStatementFailsItsLookUpsAndTheNextStillRuns() {
        // given: a statement in flight, and a look-up waiting for the next
        AtomicReference<Throwable> failed = new AtomicReference<>();
        lookup.of("a").subscribe(value -> { }, failed::set);
        AtomicReference<Integer> later = new AtomicReference<>();
        lookup.of("b").subscribe(later::set);

        // when: the statement fails
        statements.get(0).answer().tryEmitError(new IllegalStateException("connection lost"));

        // then: its look-up sees the error, the waiting one gets a statement of its own
        assertThat(failed.get()).hasMessage("connection lost");
        assertThat(statements).hasSize(2);
        statements.get(1).answer().tryEmitValue(Map.of("b", 7));
        assertThat(later.get()).isEqualTo(7);
    }

    @Test
    void aLookUpThatThrowsFailsItsLookUpsWithoutBlockingLaterOnes() {
        AtomicReference<Boolean> throwNow = new AtomicReference<>(true);
        CoalescedLookup<String, Integer> throwing = new CoalescedLookup<>(keys -> {
            if (throwNow.getAndSet(false)) {
                throw new IllegalArgumentException("bad statement");
            }
            return Mono.just(Map.of("x", 3));
        });
        AtomicReference<Throwable> failed = new AtomicReference<>();
        throwing.of("x").subscribe(value -> { }, failed::set);

        assertThat(failed.get()).hasMessage("bad statement");
        assertThat(throwing.of("x").block()).isEqualTo(3);
    }
}
