package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.StorableText;
import ai.convo.testing.ContractEvents;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every event type of the contract, found on the class path (so a new one cannot be forgotten), with text of every
 * plane in each of its strings (and lists and maps of strings): stored by the event serializer and read back, it is
 * the same event, and its stored JSON holds only text PostgreSQL keeps unchanged ({@link StorableText}, proven
 * against PostgreSQL by {@link StorableTextDatabaseTest}), which is what projections write into text and jsonb.
 */
class EventPayloadRoundTripTest {

    private static final int ROUNDS = 30;

    @Test
    void givenEveryEventTypeWithTextOfEveryPlane_whenSerializedAndRead_thenTheSameEventAndStorableJson() throws Exception {
        Serializer serializer = AxonSerializers.jackson3();
        JsonMapper json = JsonMapper.builder().build();
        Random random = new Random(Long.getLong("storable.seed", 20261127L));
        List<Class<?>> types = eventTypes();
        assertThat(types).hasSizeGreaterThan(50);
        List<String> problems = new ArrayList<>();
        for (Class<?> type : types) {
            for (int round = 0; round < ROUNDS; round++) {
                Object event = instance(type, random);
                SerializedObject<byte[]> stored = serializer.serialize(event, byte[].class);
                Object read = serializer.deserialize(stored);
                if (!event.equals(read)) {
                    problems.add(type.getSimpleName() + " read back differs: " + event + " -> " + read);
                }
                String unstorable = firstUnstorable(json.readTree(stored.getData()));
                if (unstorable != null) {
                    problems.add(type.getSimpleName() + " stores " + unstorable);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static String firstUnstorable(JsonNode node) {
        if (node.isString()) {
            return StorableText.problem(node.stringValue());
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String problem = StorableText.problem(field.getKey());
            if (problem == null) {
                problem = firstUnstorable(field.getValue());
            }
            if (problem != null) {
                return problem;
            }
        }
        for (int i = 0; node.isArray() && i < node.size(); i++) {
            String problem = firstUnstorable(node.get(i));
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static List<Class<?>> eventTypes() throws Exception {
        return ContractEvents.types();
    }

    /** A record with generated storable text in every string, list of strings and map of strings; other values plain. */
    private static Object instance(Class<?> type, Random random) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> t = components[i].getType();
            types[i] = t;
            values[i] = t == String.class ? text(random)
                    : t == int.class ? 0 : t == long.class ? 0L : t == boolean.class ? false : t == double.class ? 0.0
                    : t == List.class ? (ofStrings(components[i].getGenericType(), 1) ? List.of(text(random)) : List.of())
                    : t == Map.class ? (ofStrings(components[i].getGenericType(), 0) ? Map.of(text(random), text(random)) : Map.of())
                    : t.isEnum() ? t.getEnumConstants()[0] : null;
        }
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        return constructor.newInstance(values);
    }

    /** Whether a List's element (index 1: any) or a Map's key (0) and value are strings or anything. */
    private static boolean ofStrings(Type generic, int index) {
        if (!(generic instanceof ParameterizedType parameterized)) {
            return false;
        }
        for (Type argument : parameterized.getActualTypeArguments()) {
            if (argument != String.class && argument != Object.class) {
                return false;
            }
        }
        return true;
    }

    /** Storable text of 1 to 8 characters from any plane: what the input boundary lets through. */
    private static String text(Random random) {
        while (true) {
            String text = StorableTextDatabaseTest.generate(random);
            if (!text.isEmpty() && StorableText.isStorable(text)) {
                return text;
            }
        }
    }
}
