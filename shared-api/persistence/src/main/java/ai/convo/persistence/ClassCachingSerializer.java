package ai.convo.persistence;

import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.serialization.SerializedType;
import org.axonframework.serialization.UnknownSerializedType;
import org.axonframework.serialization.jackson3.Jackson3Serializer;

/**
 * Axon's Jackson 3 serializer, remembering the classes it resolved by name. Axon resolves a stored event's payload
 * class with {@code Class.forName} for every event each processor reads, which a catch-up profile showed as one of its
 * largest costs. Only found classes are kept (Axon keeps the unknown ones), so the map holds at most the event and
 * metadata classes there are.
 */
final class ClassCachingSerializer extends Jackson3Serializer {

    private final ConcurrentHashMap<String, Class<?>> classes = new ConcurrentHashMap<>();

    ClassCachingSerializer(Builder builder) {
        super(builder);
    }

    @Override
    public Class<?> classForType(SerializedType type) {
        String name = resolveClassName(type);
        Class<?> known = classes.get(name);
        if (known != null) {
            return known;
        }
        Class<?> found = super.classForType(type);
        if (found != UnknownSerializedType.class) {
            classes.put(name, found);
        }
        return found;
    }
}
