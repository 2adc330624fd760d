package ai.convo.persistence.upcasting;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.axonframework.serialization.upcasting.event.EventUpcasterChain;
import org.axonframework.serialization.upcasting.event.InitialEventRepresentation;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;

/**
 * The one upcaster chain of a service, for everything that reads stored events: the event store (aggregates and
 * processors, so every projection and a rebuild that replays through them), and whoever reads rows of
 * domain_event_entry itself (the event log, the resource history, a snapshot's capture). Such a reader hands each
 * row to {@link #current} or {@link #payloads} and never deserializes a stored payload directly: an event stored in
 * an older shape would then fail to load (a missing primitive field) or load silently wrong (the serializer ignores
 * unknown fields and reads a missing object field as null).
 * Rows are upcast one at a time: an upcaster that needs the events around one cannot be served here.
 */
public final class StoredEvents {

    private static final byte[] NO_META_DATA = "{}".getBytes(StandardCharsets.UTF_8);

    private final EventUpcasterChain chain;
    private final boolean upcasting;
    private final Serializer serializer;

    public StoredEvents(List<EventUpcaster> upcasters, Serializer serializer) {
        this.chain = new EventUpcasterChain(upcasters);
        this.upcasting = !upcasters.isEmpty();
        this.serializer = serializer;
    }

    /** The chain, for the event storage engine. */
    public EventUpcasterChain chain() {
        return chain;
    }

    /** Whether any upcaster is registered (if not, stored payloads are already in their current shape). */
    public boolean upcasting() {
        return upcasting;
    }

    /** The serializer that reads payloads (the event serializer). */
    public Serializer serializer() {
        return serializer;
    }

    /**
     * A stored event as the chain makes it, in today's shape: one representation as a rule, none when an upcaster
     * dropped the event, several when one split it. {@code getData(byte[].class)} gives the payload's JSON.
     */
    public List<IntermediateEventRepresentation> current(DomainEventData<?> stored) {
        try (Stream<IntermediateEventRepresentation> upcast = chain.upcast(
                Stream.of(new InitialEventRepresentation(stored, serializer)))) {
            return upcast.toList();
        }
    }

    /** The same, deserialized: the payload objects today's code handles. */
    public List<Object> payloads(DomainEventData<?> stored) {
        return current(stored).stream()
                .map(event -> serializer.deserialize((SerializedObject<?>) event.getData()))
                .toList();
    }

    /**
     * A row of domain_event_entry as the chain takes it. Pass what the row holds; the aggregate type, timestamp and
     * metadata may be null when a reader has not selected them (an upcaster that needs them then sees none).
     */
    public static DomainEventData<byte[]> row(String aggregateType, String aggregateId, long sequenceNumber,
                                             String eventId, String timestamp, String payloadType,
                                             String payloadRevision, byte[] payload, byte[] metaData) {
        return new GenericDomainEventEntry<>(aggregateType, aggregateId, sequenceNumber, eventId,
                timestamp == null ? java.time.Instant.EPOCH.toString() : timestamp, payloadType, payloadRevision,
                payload, metaData == null ? NO_META_DATA : metaData);
    }
}
