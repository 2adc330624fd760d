package ai.convo.persistence.upcasting;

import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;
import tools.jackson.databind.node.ObjectNode;

/**
 * One step of one event type: a stored payload of {@code type} at revision {@code from} (null: stored before the
 * type had a revision) becomes revision {@code to}, as a Jackson 3 tree ({@link ObjectNode}, which Axon's
 * Jackson3Serializer converts to and from the stored bytes). Events of other types or revisions pass untouched.
 * The type's name stays: a class of the contract is never renamed in place.
 */
public abstract class JsonPayloadUpcaster extends SingleEventUpcaster {

    private final String type;
    private final String from;
    private final String to;

    protected JsonPayloadUpcaster(Class<?> type, String from, String to) {
        this.type = type.getName();
        this.from = from;
        this.to = to;
    }

    /** Changes the old payload into the new one (in place or a new node). */
    protected abstract ObjectNode upcast(ObjectNode payload);

    @Override
    protected final boolean canUpcast(IntermediateEventRepresentation representation) {
        return representation.getType().getName().equals(type)
                && java.util.Objects.equals(representation.getType().getRevision(), from);
    }

    @Override
    protected final IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
        return representation.upcastPayload(new SimpleSerializedType(type, to), ObjectNode.class, this::upcast);
    }

    /**
     * The payload with field {@code from} called {@code to}, in the same place among the fields (so an upcast payload
     * reads like one written in the new shape). A payload without {@code from} is returned as it is.
     */
    protected static ObjectNode rename(ObjectNode payload, String from, String to) {
        if (!payload.has(from)) {
            return payload;
        }
        ObjectNode renamed = payload.objectNode();
        payload.properties().forEach(field ->
                renamed.set(field.getKey().equals(from) ? to : field.getKey(), field.getValue()));
        return renamed;
    }
}
