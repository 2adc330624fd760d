package ai.convo.command.eventsourcing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.spring.eventsourcing.SpringAggregateSnapshotter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Takes aggregate snapshots, and stores one only when it reads back as exactly the state it was taken from: a
 * snapshot is a cache of the events, so one that would load differently (a field the serializer cannot carry, a
 * number that comes back as another type) is refused and the aggregate keeps loading from its events.
 */
public class VerifiedSnapshotter extends SpringAggregateSnapshotter {

    private static final Logger LOG = LoggerFactory.getLogger(VerifiedSnapshotter.class);

    private final Serializer serializer;
    private final AtomicLong refused = new AtomicLong();
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final java.util.Map<String, Class<?>> types = new ConcurrentHashMap<>();

    VerifiedSnapshotter(Builder builder, Serializer serializer) {
        super(builder);
        this.serializer = serializer;
    }

    /**
     * A command sent inside a wider transaction (the commands of one batch or import part) ends before that
     * transaction commits: a snapshot taken then would read none of its events. It is taken after the commit instead,
     * once per aggregate however many of the batch's commands crossed the threshold.
     */
    @Override
    public void scheduleSnapshot(Class<?> aggregateType, String aggregateIdentifier) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            super.scheduleSnapshot(aggregateType, aggregateIdentifier);
            return;
        }
        @SuppressWarnings("unchecked")
        Set<String> scheduled = (Set<String>) TransactionSynchronizationManager.getResource(this);
        if (scheduled == null) {
            Set<String> pending = new java.util.LinkedHashSet<>();
            TransactionSynchronizationManager.bindResource(this, pending);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    pending.forEach(key -> {
                        int at = key.indexOf('\n');
                        VerifiedSnapshotter.super.scheduleSnapshot(types.get(key.substring(0, at)),
                                key.substring(at + 1));
                    });
                }

                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(VerifiedSnapshotter.this);
                }
            });
            scheduled = pending;
        }
        types.putIfAbsent(aggregateType.getName(), aggregateType);
        scheduled.add(aggregateType.getName() + "\n" + aggregateIdentifier);
    }

    @Override
    protected DomainEventMessage createSnapshot(Class<?> aggregateType, String aggregateIdentifier,
                                                DomainEventStream eventStream) {
        DomainEventMessage<?> snapshot = super.createSnapshot(aggregateType, aggregateIdentifier, eventStream);
        if (snapshot == null) {
            return null;
        }
        String difference = roundTripDifference(snapshot.getPayload());
        if (difference != null) {
            refused.incrementAndGet();
            if (reported.add(aggregateType.getName())) {
                LOG.error("Snapshots of {} are not taken: one does not read back as the state it was taken from ({})",
                        aggregateType.getSimpleName(), difference);
            }
            return null;
        }
        return snapshot;
    }

    /** The snapshot of the aggregate with these events, unverified (null when the aggregate is deleted). */
    public DomainEventMessage<?> snapshotOf(Class<?> aggregateType, String aggregateId, DomainEventStream events) {
        return super.createSnapshot(aggregateType, aggregateId, events);
    }

    /** The first difference between {@code state} and what its serialized form reads back as, or null. */
    public String roundTripDifference(Object state) {
        try {
            SerializedObject<byte[]> bytes = serializer.serialize(state, byte[].class);
            Object copy = serializer.deserialize(bytes);
            return SameState.difference(state, copy);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            return "not serializable: " + root.getMessage();
        }
    }

    public long refused() {
        return refused.get();
    }
}
