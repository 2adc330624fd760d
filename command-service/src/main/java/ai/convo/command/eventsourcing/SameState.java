package ai.convo.command.eventsourcing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Whether two object graphs hold the same state: values that define equality (records, strings, numbers, enums,
 * collections of such) by {@code equals}, exactly including their classes; other objects (aggregates and their
 * inner classes) field by field. Answers the first difference, or null.
 */
final class SameState {

    private SameState() {
    }

    static String difference(Object a, Object b) {
        return difference(a, b, "", new IdentityHashMap<>());
    }

    private static String difference(Object a, Object b, String path, IdentityHashMap<Object, Object> seen) {
        if (a == b) {
            return null;
        }
        if (a == null || b == null || a.getClass() != b.getClass()) {
            return path + ": " + describe(a) + " != " + describe(b);
        }
        if (a instanceof Map<?, ?> ma) {
            Map<?, ?> mb = (Map<?, ?>) b;
            if (ma.size() != mb.size()) {
                return path + ": " + ma.size() + " entries != " + mb.size();
            }
            Iterator<? extends Map.Entry<?, ?>> ia = ma.entrySet().iterator();
            Iterator<? extends Map.Entry<?, ?>> ib = mb.entrySet().iterator();
            while (ia.hasNext()) {
                Map.Entry<?, ?> ea = ia.next();
                Map.Entry<?, ?> eb = ib.next();
                String keys = difference(ea.getKey(), eb.getKey(), path + "{key}", seen);
                if (keys != null) {
                    return keys;
                }
                String values = difference(ea.getValue(), eb.getValue(), path + "[" + ea.getKey() + "]", seen);
                if (values != null) {
                    return values;
                }
            }
            return null;
        }
        if (a instanceof Collection<?> ca) {
            Collection<?> cb = (Collection<?>) b;
            if (ca.size() != cb.size()) {
                return path + ": " + ca.size() + " elements != " + cb.size();
            }
            Iterator<?> ia = ca.iterator();
            Iterator<?> ib = cb.iterator();
            for (int i = 0; ia.hasNext(); i++) {
                String element = difference(ia.next(), ib.next(), path + "[" + i + "]", seen);
                if (element != null) {
                    return element;
                }
            }
            return null;
        }
        if (definesEquality(a.getClass())) {
            return Objects.equals(a, b) && a.hashCode() == b.hashCode() ? null
                    : path + ": " + describe(a) + " != " + describe(b);
        }
        if (seen.put(a, b) != null) {
            return null;
        }
        for (Class<?> c = a.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || Modifier.isTransient(field.getModifiers())) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                    String inner = difference(field.get(a), field.get(b), path + "." + field.getName(), seen);
                    if (inner != null) {
                        return inner;
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return path + "." + field.getName() + ": not comparable (" + e.getMessage() + ")";
                }
            }
        }
        return null;
    }

    private static boolean definesEquality(Class<?> type) {
        if (type.isRecord() || type.isEnum() || type.isPrimitive() || type.getName().startsWith("java.")) {
            return true;
        }
        try {
            return type.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName() + " " + value;
    }
}
