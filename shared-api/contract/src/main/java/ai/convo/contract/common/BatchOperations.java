package ai.convo.contract.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a batch's operations one after the other inside one command handler, so they commit together or not at all,
 * and names the failing one: its index and kind go in front of its problem, and into the problem's details.
 */
public final class BatchOperations {

    /** The kinds of operation a batch holds, as the official client names them. */
    public enum Op { CREATE, UPDATE, DELETE }

    private BatchOperations() {
    }

    /** Applies each operation ({@code op} tells its kind, {@code id} its resource); answers what was done. */
    public static <T> BatchResult run(List<T> operations, java.util.function.Function<T, Op> op,
                                      java.util.function.Function<T, String> id, Consumer<T> apply) {
        List<String> created = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (int i = 0; i < operations.size(); i++) {
            T operation = operations.get(i);
            Op kind = op.apply(operation);
            try {
                apply.accept(operation);
            } catch (DomainException e) {
                String name = kind.name().toLowerCase(java.util.Locale.ROOT);
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("operation", i);
                details.put("op", name);
                details.putAll(e.details());
                throw new DomainException(e.kind(), "operations[" + i + "] (" + name + "): " + e.detail()
                        + " No operation of the batch was applied.", details);
            }
            switch (kind) {
                case CREATE -> created.add(id.apply(operation));
                case UPDATE -> updated.add(id.apply(operation));
                case DELETE -> deleted.add(id.apply(operation));
            }
        }
        return new BatchResult(List.copyOf(created), List.copyOf(updated), List.copyOf(deleted));
    }
}
