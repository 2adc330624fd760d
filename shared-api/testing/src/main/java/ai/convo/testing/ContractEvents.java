package ai.convo.testing;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/** Every event record of the contract, found on the class path, so a guard test cannot forget a new one. */
public final class ContractEvents {

    private ContractEvents() {
    }

    /**
     * A record of the type with every string its component's name + "-v" (so ids of one resource agree across
     * events: every flowId is "flowId-v"), collections empty, numbers 0, booleans false, enums their first constant.
     */
    public static Object sample(Class<?> type) throws ReflectiveOperationException {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> t = components[i].getType();
            types[i] = t;
            values[i] = t == String.class ? components[i].getName() + "-v"
                    : t == int.class ? 0 : t == long.class ? 0L : t == boolean.class ? false : t == double.class ? 0.0
                    : t == List.class ? List.of() : t == Map.class ? Map.of()
                    : t.isEnum() ? t.getEnumConstants()[0] : null;
        }
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return constructor.newInstance(values);
    }

    public static List<Class<?>> types() throws Exception {
        List<Class<?>> types = new ArrayList<>();
        for (Resource resource : new PathMatchingResourcePatternResolver()
                .getResources("classpath*:ai/convo/contract/**/*Event.class")) {
            String path = resource.getURL().toString();
            String name = path.substring(path.lastIndexOf("ai/convo/contract/"), path.length() - ".class".length())
                    .replace('/', '.');
            Class<?> type = Class.forName(name);
            if (type.isRecord()) {
                types.add(type);
            }
        }
        return types;
    }
}
