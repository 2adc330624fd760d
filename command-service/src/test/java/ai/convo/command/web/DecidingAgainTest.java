package ai.convo.command.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.contract.common.DomainException;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;

class DecidingAgainTest {

    @Test
    void givenAnotherWriterAppendedFirstTwice_whenRun_thenDecidedAgainUntilItLands() {
        AtomicInteger attempts = new AtomicInteger();

        String result = DecidingAgain.run(() -> {
            if (attempts.incrementAndGet() < 3) {
                // as the command bus reports it: wrapped
                throw new CommandExecutionException("append refused", new ConcurrencyException("seq 4 taken"));
            }
            return "landed";
        });

        assertThat(result).isEqualTo("landed");
        assertThat(attempts).hasValue(3);
    }

    @Test
    void givenABusinessRefusal_whenRun_thenItIsNotRetried() {
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> DecidingAgain.run(() -> {
            attempts.incrementAndGet();
            throw DomainException.conflict("Only 10 snapshots per project.");
        })).isInstanceOf(DomainException.class);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void givenAnAggregateCreatedTwiceWithOneId_whenRun_thenItIsDecidedAgainOnceOnly() {
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> DecidingAgain.run(() -> {
            attempts.incrementAndGet();
            throw new AggregateStreamCreationException("exists");
        })).isInstanceOf(AggregateStreamCreationException.class);
        assertThat(attempts).hasValue(2);
    }

    @Test
    void givenAnAggregateCreatedIfMissingByAnotherWriterFirst_whenRun_thenDecidedAgainOnWhatIsThere() {
        AtomicInteger attempts = new AtomicInteger();

        String result = DecidingAgain.run(() -> {
            if (attempts.incrementAndGet() == 1) {
                throw new CommandExecutionException("append refused",
                        new AggregateStreamCreationException("Cannot reuse aggregate identifier [snapshots-p]"));
            }
            return "found and decided";
        });

        assertThat(result).isEqualTo("found and decided");
        assertThat(attempts).hasValue(2);
    }

    @Test
    void givenARaceLostEveryTime_whenRun_thenItGivesUpAfterTheBound() {
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> DecidingAgain.run(() -> {
            attempts.incrementAndGet();
            throw new ConcurrencyException("always taken");
        })).isInstanceOf(ConcurrencyException.class);
        assertThat(attempts).hasValue(DecidingAgain.ATTEMPTS);
    }

    @Test
    void givenARefusalDecidedOnAStaleAggregateEveryTime_whenRun_thenTheAnswerIsRetryNotTheRefusal() {
        // as CachedDecisions reports a refusal made on a cached aggregate the store had already left
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> DecidingAgain.run(() -> {
            attempts.incrementAndGet();
            ConcurrencyException stale = new ConcurrencyException("project p was behind the store");
            stale.addSuppressed(DomainException.conflict("A locale with that name exists."));
            throw new CommandExecutionException("decided on a stale aggregate", stale);
        })).satisfies(error -> {
            Throwable answer = Commands.translate(error);
            assertThat(answer).isInstanceOf(DomainException.class);
            assertThat(((DomainException) answer).detail()).contains("retry");
        });
        assertThat(attempts).hasValue(DecidingAgain.ATTEMPTS);
    }
}
