package ai.convo.persistence.snapshots;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.eventsourcing.snapshotting.SnapshotFilter;
import org.axonframework.serialization.RevisionResolver;

/**
 * The revision of an aggregate snapshot is a fingerprint of the aggregate class's stored shape: every instance
 * field, with its declared type, of the class and of every class of ours it holds, recursively. A snapshot whose
 * revision differs from the running code's fingerprint is ignored, and the aggregate is loaded from its events: a
 * snapshot is a cache, so a changed aggregate (a field renamed, added, retyped) never reads a snapshot written for
 * the old shape, and nobody has to remember to bump a number.
 */
public final class AggregateShapes implements RevisionResolver {

    private static final String OURS = "ai.convo.";
    private static final Map<String, String> FINGERPRINTS = new ConcurrentHashMap<>();

    /** The snapshot revision of {@code type}. */
    @Override
    public String revisionOf(Class<?> type) {
        return fingerprint(type);
    }

    /** Lets through only the snapshots written for the aggregate shape this code has. */
    public static SnapshotFilter filter(ClassLoader classLoader) {
        return snapshot -> {
            String typeName = snapshot.getPayload().getType().getName();
            String revision = snapshot.getPayload().getType().getRevision();
            try {
                return fingerprint(Class.forName(typeName, false, classLoader)).equals(revision);
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        };
    }

    /** How the snapshot serializer reads an aggregate's state ({@link AggregateStateIntrospector}). */
    public static tools.jackson.databind.AnnotationIntrospector introspector() {
        return new AggregateStateIntrospector();
    }

    public static String fingerprint(Class<?> type) {
        return FINGERPRINTS.computeIfAbsent(type.getName(), name -> {
            Set<String> lines = new TreeSet<>();
            describe(type, lines, new TreeSet<>());
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256")
                        .digest(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
                return "shape-" + HexFormat.of().formatHex(digest, 0, 8);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void describe(Class<?> type, Set<String> lines, Set<String> seen) {
        if (!seen.add(type.getName())) {
            return;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || Modifier.isTransient(field.getModifiers())
                        || field.isSynthetic()) {
                    continue;
                }
                lines.add(c.getName() + "." + field.getName() + ":" + field.getGenericType().getTypeName());
                follow(field.getGenericType(), lines, seen);
            }
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                lines.add(type.getName() + "#" + constant);
            }
        }
    }

    private static void follow(Type type, Set<String> lines, Set<String> seen) {
        if (type instanceof Class<?> c) {
            if (c.isArray()) {
                follow(c.getComponentType(), lines, seen);
            } else if (c.getName().startsWith(OURS)) {
                describe(c, lines, seen);
            }
        } else if (type instanceof ParameterizedType p) {
            follow(p.getRawType(), lines, seen);
            for (Type argument : p.getActualTypeArguments()) {
                follow(argument, lines, seen);
            }
        }
    }
}
