package ai.convo.query.deadletter;

import io.micrometer.core.instrument.Counter;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.DeadLetterQueueOverflowException;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.NoSuchDeadLetterException;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A group's JDBC dead-letter queue that never parks silently: the first event of a sequence parked is a warning with
 * its group, sequence, event, trace id and cause, and a count in {@code convo.projections.parked}; once committed it
 * is known to {@link ParkedSequences} at once (the reads of its organisation's writers are answered so).
 */
class ParkingQueue implements SequencedDeadLetterQueue<EventMessage<?>> {

    private static final Logger log = LoggerFactory.getLogger(ParkingQueue.class);

    private final String group;
    private final SequencedDeadLetterQueue<EventMessage<?>> delegate;
    private final ParkedSequences parked;
    private final Counter count;
    /** When this queue last parked something (nanoTime), known before its transaction commits. */
    private volatile long lastEnqueued = System.nanoTime() - RECENT_NANOS;
    private static final long RECENT_NANOS = 15_000_000_000L;

    ParkingQueue(String group, SequencedDeadLetterQueue<EventMessage<?>> delegate, ParkedSequences parked) {
        this.group = group;
        this.delegate = delegate;
        this.parked = parked;
        this.count = parked.counter(group);
    }

    @Override
    public void enqueue(Object sequenceIdentifier, DeadLetter<? extends EventMessage<?>> letter)
            throws DeadLetterQueueOverflowException {
        lastEnqueued = System.nanoTime();
        delegate.enqueue(sequenceIdentifier, letter);
        EventMessage<?> event = letter.message();
        ParkedSequences.Parked entry = ParkedSequences.of(group, String.valueOf(sequenceIdentifier), event,
                letter.cause().map(c -> c.type() + ": " + c.message()).orElse(null));
        if (letter.cause().isPresent()) {
            count.increment();
            log.warn("Projection {} parked sequence {}: event {} ({}, position {}, traceId {}, organisation {}) "
                            + "could not be applied: {}. The sequence waits for a retry; every other goes on.",
                    group, sequenceIdentifier, event.getIdentifier(), event.getPayloadType().getSimpleName(),
                    entry.position(), entry.traceId(), entry.organisationId(), entry.cause());
            // with the dead letter, in its transaction
            parked.audit("parked", group, entry.sequenceId(), entry.organisationId(), entry.traceId(),
                    entry.position() < 0 ? null : entry.position(), entry.cause(), null);
        }
        known(entry);
    }

    @Override
    public boolean enqueueIfPresent(Object sequenceIdentifier,
                                    Supplier<DeadLetter<? extends EventMessage<?>>> letterBuilder)
            throws DeadLetterQueueOverflowException {
        if (!mayHoldAny()) {
            return false;
        }
        boolean queued = delegate.enqueueIfPresent(sequenceIdentifier, letterBuilder);
        if (queued) {
            log.info("Projection {}: an event queued behind parked sequence {}", group, sequenceIdentifier);
        }
        return queued;
    }

    /**
     * Axon asks whether an event's sequence is parked for every event it handles; the JDBC queue answers with a query
     * each time. While the group has nothing parked (the table as read each second, what this replica parked, and what
     * it parks in a transaction not yet committed), the answer is no without a round trip.
     */
    private boolean mayHoldAny() {
        return System.nanoTime() - lastEnqueued < RECENT_NANOS || parked.anyIn(group);
    }

    /** Known to this replica's reads once the dead letter committed (other replicas read it within a second). */
    private void known(ParkedSequences.Parked entry) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    parked.add(entry);
                }
            });
        } else {
            parked.add(entry);
        }
    }

    @Override
    public void evict(DeadLetter<? extends EventMessage<?>> letter) {
        delegate.evict(letter);
    }

    @Override
    public void requeue(DeadLetter<? extends EventMessage<?>> letter,
                        UnaryOperator<DeadLetter<? extends EventMessage<?>>> letterUpdater)
            throws NoSuchDeadLetterException {
        delegate.requeue(letter, letterUpdater);
    }

    @Override
    public boolean contains(Object sequenceIdentifier) {
        return mayHoldAny() && delegate.contains(sequenceIdentifier);
    }

    @Override
    public Iterable<DeadLetter<? extends EventMessage<?>>> deadLetterSequence(Object sequenceIdentifier) {
        return delegate.deadLetterSequence(sequenceIdentifier);
    }

    @Override
    public Iterable<Iterable<DeadLetter<? extends EventMessage<?>>>> deadLetters() {
        return delegate.deadLetters();
    }

    @Override
    public boolean isFull(Object sequenceIdentifier) {
        return delegate.isFull(sequenceIdentifier);
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public long sequenceSize(Object sequenceIdentifier) {
        return delegate.sequenceSize(sequenceIdentifier);
    }

    @Override
    public long amountOfSequences() {
        return delegate.amountOfSequences();
    }

    @Override
    public boolean process(Predicate<DeadLetter<? extends EventMessage<?>>> sequenceFilter,
                           Function<DeadLetter<? extends EventMessage<?>>, EnqueueDecision<EventMessage<?>>> processingTask) {
        return delegate.process(sequenceFilter, processingTask);
    }

    @Override
    public void clear() {
        delegate.clear();
    }
}
