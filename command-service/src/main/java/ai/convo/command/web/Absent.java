package ai.convo.command.web;

import ai.convo.contract.common.DomainException;
import java.lang.reflect.Field;
import java.util.Locale;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The one answer for a resource the caller cannot address: one that does not exist, and one of another organisation
 * (or under another parent), in the same words, so that no answer tells an organisation what exists in another.
 * Aggregates refuse with {@link #of}; a command whose aggregate does not exist gets the same words from
 * {@link AbsentTargets}, named after its target's id type.
 */
public final class Absent {

    private Absent() {
    }

    /** "Flow X does not exist." for {@code FlowId.class}: the resource named after its id type. */
    public static DomainException of(Class<?> idType, String id) {
        return DomainException.notFound(noun(idType) + " " + id + " does not exist.");
    }

    /** The refusal for a command whose target aggregate does not exist; null when the command names no target. */
    static DomainException targetOf(Object command, String id) {
        for (Class<?> type = command.getClass(); type != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.isAnnotationPresent(TargetAggregateIdentifier.class)) {
                    return of(field.getType(), id);
                }
            }
        }
        return null;
    }

    /** KnowledgeSourceId: "Knowledge source". */
    static String noun(Class<?> idType) {
        String name = idType.getSimpleName().replaceFirst("Id$", "");
        String words = name.replaceAll("([a-z])([A-Z])", "$1 $2");
        return words.isEmpty() ? "Resource" : words.charAt(0) + words.substring(1).toLowerCase(Locale.ROOT);
    }
}
