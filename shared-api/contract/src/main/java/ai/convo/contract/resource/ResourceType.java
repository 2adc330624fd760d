package ai.convo.contract.resource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One resource type as the shared machinery sees it: the event log, the audit trail, the history routes, the
 * rebuild and the snapshots all read it from here (listed in {@link ResourceTypes}), so a new type is one entry.
 *
 * @param name          the official client's resource type name (event log, audit trail, {@code resourceType=})
 * @param idField       the payload field that holds its id
 * @param events        the start of its event classes' simple names ("State" claims StateCreatedEvent), each to the
 *                      payload field with the resource's id there (idField, unless an event names it otherwise)
 * @param parents       the resources above it, from the top down, as the audit chain names them
 * @param table         its read-model table (one row per resource), or null
 * @param projection    the query service's processing group that keeps its table, or null
 * @param history       its history route, or why it has none
 * @param snapshot      whether a project's snapshot holds it, or why not
 */
public record ResourceType(String name, String idField, Map<String, String> events, List<Parent> parents,
                           String table, String projection, History history, Snapshot snapshot) {

    public ResourceType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(idField, name + ": idField");
        events = Collections.unmodifiableMap(new LinkedHashMap<>(events));
        parents = List.copyOf(parents);
    }

    /** A resource above this one and the payload field that holds its id (a state's flow: flowId). */
    public record Parent(String type, String idField) {
    }

    /**
     * {@code GET path} lists the changes of one resource; {@code what} names it in a 404. {@code parentFields}: each
     * path variable but the last (the resource's own id) to the payload field its events hold it in.
     * {@code noneBecause}: why a type keeps no history (then {@code path} is null).
     */
    public record History(String what, String path, Map<String, String> parentFields, String noneBecause) {

        private static final Pattern VARIABLE = Pattern.compile("\\{([A-Za-z]+)}");

        /** {@code variableToField}: "knowledgeStoreId=storeId" where a parent's field is not its variable's name. */
        public static History at(String what, String path, String... variableToField) {
            Map<String, String> renamed = new LinkedHashMap<>();
            for (String pair : variableToField) {
                String[] parts = pair.split("=");
                renamed.put(parts[0], parts[1]);
            }
            List<String> variables = variables(path);
            Map<String, String> fields = new LinkedHashMap<>();
            variables.subList(0, variables.size() - 1).forEach(v -> fields.put(v, renamed.getOrDefault(v, v)));
            return new History(what, path, fields, null);
        }

        public static History none(String because) {
            return new History(null, null, Map.of(), Objects.requireNonNull(because));
        }

        public boolean kept() {
            return path != null;
        }

        /** The path variable of the resource's own id (the last one). */
        public String idVariable() {
            List<String> variables = variables(path);
            return variables.get(variables.size() - 1);
        }

        private static List<String> variables(String path) {
            List<String> variables = new ArrayList<>();
            Matcher m = VARIABLE.matcher(path);
            while (m.find()) {
                variables.add(m.group(1));
            }
            if (variables.isEmpty()) {
                throw new IllegalArgumentException("A history route names its resource's id: " + path);
            }
            return variables;
        }
    }

    /** Whether a project's snapshot holds resources of this type; {@code excludedBecause} says why not. */
    public record Snapshot(boolean included, String excludedBecause) {

        public static final Snapshot INCLUDED = new Snapshot(true, null);

        public static Snapshot excluded(String because) {
            return new Snapshot(false, Objects.requireNonNull(because));
        }
    }

    /**
     * A type with its events' name prefixes; the steps below add the rest. A prefix may name the id field of its
     * events when that is not {@code idField} ("PrimaryLocaleChanged=primaryLocaleId").
     */
    public static ResourceType named(String name, String idField, String... eventPrefixes) {
        Map<String, String> events = new LinkedHashMap<>();
        for (String prefix : eventPrefixes) {
            String[] parts = prefix.split("=");
            events.put(parts[0], parts.length > 1 ? parts[1] : idField);
        }
        return new ResourceType(name, idField, events, List.of(), null, null, null, null);
    }

    /** {@code parents}: "type:idField" from the top down ("flow:flowId", "intent:intentId"). */
    public ResourceType under(String... parents) {
        List<Parent> above = new ArrayList<>();
        for (String parent : parents) {
            String[] parts = parent.split(":");
            above.add(new Parent(parts[0], parts[1]));
        }
        return new ResourceType(name, idField, events, above, table, projection, history, snapshot);
    }

    /** Its read-model table and the processing group that keeps it ({@code table} null: the group keeps none). */
    public ResourceType view(String table, String projection) {
        return new ResourceType(name, idField, events, parents, table, projection, history, snapshot);
    }

    public ResourceType history(String what, String path, String... variableToField) {
        return new ResourceType(name, idField, events, parents, table, projection,
                History.at(what, path, variableToField), snapshot);
    }

    public ResourceType noHistory(String because) {
        return new ResourceType(name, idField, events, parents, table, projection, History.none(because),
                snapshot);
    }

    public ResourceType inSnapshots() {
        return new ResourceType(name, idField, events, parents, table, projection, history, Snapshot.INCLUDED);
    }

    public ResourceType notInSnapshots(String because) {
        return new ResourceType(name, idField, events, parents, table, projection, history,
                Snapshot.excluded(because));
    }

    /** Whether an event type (its simple name without "Event") starts with one of this type's prefixes. */
    public boolean claims(String eventType) {
        return events.keySet().stream().anyMatch(eventType::startsWith);
    }

    /** The payload field with this resource's id in an event of the type (of its longest matching prefix). */
    public String idFieldOf(String eventType) {
        String field = idField;
        int longest = 0;
        for (Map.Entry<String, String> event : events.entrySet()) {
            if (eventType.startsWith(event.getKey()) && event.getKey().length() > longest) {
                longest = event.getKey().length();
                field = event.getValue();
            }
        }
        return field;
    }
}
