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

    VerifiedSnapshotter(Builder builder, Serializer serializer) {
        super(builder);
        this.serializer = serializer;
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
