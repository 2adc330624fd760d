package ai.convo.command.web;

import ai.convo.contract.common.BatchOperations.Op;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.Ids;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The body of the official client's batch operations: {@code {"operations": [{"op": "create", "value": {...}},
 * {"op": "update", "id": ..., "value": {...}}, {"op": "delete", "id": ...}]}}. Every problem is collected under its
 * path ({@code operations[2].value.text}), so one 400 names all of them.
 */
public final class BatchBody {

    /** The most operations one batch may hold. */
    public static final int MAX_OPERATIONS = 100;

    /** One operation as sent: its kind, the id it names (null for a create) and its value (empty for a delete). */
    public record Operation(int index, Op op, String id, Map<String, Object> value) {

        public String path(String field) {
            return "operations[" + index + "].value." + field;
        }
    }

    private final List<Operation> operations = new ArrayList<>();
    private final Map<String, Object> problems = new LinkedHashMap<>();

    private BatchBody() {
    }

    /** Reads the operations; {@code allowed} are the fields a value may hold (a read's metadata is skipped). */
    public static BatchBody parse(JsonBody body, Set<String> allowed, Set<String> skipped) {
        BatchBody batch = new BatchBody();
        Map<String, Object> root = body.asMap();
        for (String field : root.keySet()) {
            if (!field.equals("operations")) {
                batch.problems.put(field, "unknown field; allowed: operations");
            }
        }
        if (!(root.get("operations") instanceof List<?> list) || list.isEmpty() || list.size() > MAX_OPERATIONS) {
            batch.problems.put("operations", "is required: a list of 1 to " + MAX_OPERATIONS + " operations, each "
                    + "{op: create, value} or {op: update, id, value} or {op: delete, id}");
            return batch;
        }
        Set<String> named = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "operations[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> raw)) {
                batch.problems.put(at, "must be an object {op, id, value}");
                continue;
            }
            Op op = raw.get("op") instanceof String name ? parseOp(name) : null;
            if (op == null) {
                batch.problems.put(at + ".op", "must be one of create, update, delete");
                continue;
            }
            Set<String> keys = op == Op.CREATE ? Set.of("op", "value") : op == Op.UPDATE ? Set.of("op", "id", "value")
                    : Set.of("op", "id");
            for (Object key : raw.keySet()) {
                if (!keys.contains(key)) {
                    batch.problems.put(at + "." + key, "unknown field of a " + op.name().toLowerCase(Locale.ROOT)
                            + " operation; allowed: " + String.join(", ", new TreeSet<>(keys)));
                }
            }
            String id = null;
            if (op != Op.CREATE) {
                if (!(raw.get("id") instanceof String text) || !Ids.isValid(text)) {
                    batch.problems.put(at + ".id", "is required: the id of the resource (24 lowercase hex characters)");
                    continue;
                }
                id = text;
                if (!named.add(id)) {
                    batch.problems.put(at + ".id", "names " + id + " again; a batch names each resource once");
                }
            }
            Map<String, Object> value = new LinkedHashMap<>();
            if (op != Op.DELETE) {
                if (!(raw.get("value") instanceof Map<?, ?> fields)) {
                    batch.problems.put(at + ".value", "is required: an object with any of "
                            + String.join(", ", new TreeSet<>(allowed)));
                    continue;
                }
                fields.forEach((key, field) -> {
                    if (skipped.contains(key)) {
                        return;
                    }
                    if (!allowed.contains(key)) {
                        batch.problems.put(at + ".value." + key, "unknown field; allowed: "
                                + String.join(", ", new TreeSet<>(allowed)));
                    } else {
                        value.put((String) key, field);
                    }
                });
            }
            batch.operations.add(new Operation(i, op, id, value));
        }
        return batch;
    }

    private static Op parseOp(String name) {
        return switch (name) {
            case "create" -> Op.CREATE;
            case "update" -> Op.UPDATE;
            case "delete" -> Op.DELETE;
            default -> null;
        };
    }

    public List<Operation> operations() {
        return operations;
    }

    /**
     * Reads every operation as its own request would be read: {@code read} gets the operation and its value as that
     * request's JSON body, and throws the 400 that request would get; its problems are named under the operation's
     * path. Then throws one 400 for the whole batch if anything was wrong; answers what {@code read} made, in order.
     */
    public <T> List<T> read(java.util.function.BiFunction<Operation, byte[], T> read) {
        List<T> made = new ArrayList<>();
        for (Operation operation : operations) {
            try {
                made.add(read.apply(operation, Renderer.JSON.writeValueAsBytes(operation.value())));
            } catch (ApiProblem problem) {
                problem.details().forEach((field, text) -> problem(operation, field, String.valueOf(text)));
            }
        }
        validate();
        return made;
    }

    /** The id each operation names: a create's as {@code createdId} finds it in what was made for it. */
    public <T> List<String> ids(List<T> made, java.util.function.Function<T, String> createdId) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < operations.size(); i++) {
            ids.add(operations.get(i).op() == Op.CREATE ? createdId.apply(made.get(i)) : operations.get(i).id());
        }
        return ids;
    }

    /** Records a problem of a value's field. */
    public void problem(Operation operation, String field, String problem) {
        problems.put(operation.path(field), problem);
    }

    public Map<String, Object> problems() {
        return problems;
    }

    /** Throws one 400 naming every problem of the batch, if there is any. */
    public void validate() {
        if (problems.isEmpty()) {
            return;
        }
        StringBuilder detail = new StringBuilder("The batch is invalid, and no operation of it was applied: ");
        problems.forEach((path, problem) -> detail.append(path).append(' ').append(problem).append("; "));
        detail.setLength(detail.length() - 2);
        throw ApiProblem.badRequest(detail.append('.').toString(), problems);
    }

    /** How a refusal names each operation: {@code operations[i] (op)}. */
    public List<String> labels() {
        return operations.stream().map(o -> "operations[" + o.index() + "] ("
                + o.op().name().toLowerCase(Locale.ROOT) + ")").toList();
    }

    /** What the batch did, given the id each operation names (a create: the id it was given). */
    public BatchResult result(List<String> ids) {
        List<String> created = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (int i = 0; i < operations.size(); i++) {
            switch (operations.get(i).op()) {
                case CREATE -> created.add(ids.get(i));
                case UPDATE -> updated.add(ids.get(i));
                case DELETE -> deleted.add(ids.get(i));
            }
        }
        return new BatchResult(List.copyOf(created), List.copyOf(updated), List.copyOf(deleted));
    }

    /** The official client's answer to a batch: {created, updated, deleted}. */
    public static Map<String, Object> wire(BatchResult result) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("created", result.created());
        wire.put("updated", result.updated());
        wire.put("deleted", result.deleted());
        return wire;
    }

    /** A value's string field: null when absent (or refused, with a problem recorded). */
    public String string(Operation operation, String field, int min, int max, boolean required) {
        Object value = operation.value().get(field);
        if (value == null) {
            if (required || operation.value().containsKey(field)) {
                problem(operation, field, "is required: a string of " + min + " to " + max + " characters");
            }
            return null;
        }
        if (!(value instanceof String text) || text.length() < min || text.length() > max
                || (min > 0 && text.isBlank())) {
            problem(operation, field, "must be a string of " + min + " to " + max + " characters"
                    + (min > 0 ? " (not blank)" : ""));
            return null;
        }
        return text;
    }

    /** A value's id field: null when absent (or refused, with a problem recorded). */
    public String id(Operation operation, String field, boolean required) {
        Object value = operation.value().get(field);
        if (value == null && !required && !operation.value().containsKey(field)) {
            return null;
        }
        if (!(value instanceof String text) || !Ids.isValid(text)) {
            problem(operation, field, (required ? "is required: " : "must be ") + "an id (24 lowercase hex characters)");
            return null;
        }
        return text;
    }
}
