package ai.convo.contract.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The settings of a project or a flow as the official client types them: every setting a dotted path to a typed
 * leaf with its default. What is stored are only the values a client set (flat, path to value); a read is the
 * defaults overlaid with them, nested again. Values are kept in the shapes JSON reads back as itself (Boolean,
 * String, Double, ArrayList of String, null), so events and aggregate snapshots carry them unchanged.
 */
public final class SettingsSchema {

    /** One setting: its default, what it accepts, and how a stored value is shown. */
    public sealed interface Leaf permits Bool, Num, Text, OneOf, Words {
        Object defaultValue();

        /** What the setting accepts, for a problem body. */
        String expected();

        /** The value to store, or {@link #INVALID}. */
        Object accept(Object value);

        default Object wire(Object stored) {
            return stored;
        }
    }

    /** Marks a value a leaf refuses. */
    public static final Object INVALID = new Object();

    public record Bool(boolean fallback) implements Leaf {
        @Override
        public Object defaultValue() {
            return fallback;
        }

        @Override
        public String expected() {
            return "true or false";
        }

        @Override
        public Object accept(Object value) {
            return value instanceof Boolean ? value : INVALID;
        }
    }

    /** A number from min to max; a whole one when {@code integer}. Stored as a Double, shown as a whole number. */
    public record Num(double min, double max, double fallback, boolean integer) implements Leaf {
        @Override
        public Object defaultValue() {
            return fallback;
        }

        @Override
        public String expected() {
            String bound = (integer ? (long) min + " to " + (long) max : min + " to " + max);
            return (integer ? "a whole number from " : "a number from ") + bound;
        }

        @Override
        public Object accept(Object value) {
            if (!(value instanceof Number number) || Double.isNaN(number.doubleValue())) {
                return INVALID;
            }
            double d = number.doubleValue();
            if (d < min || d > max || (integer && d != Math.rint(d))) {
                return INVALID;
            }
            return d;
        }

        @Override
        public Object wire(Object stored) {
            double number = ((Number) stored).doubleValue();
            return integer ? (Object) Math.round(number) : (Object) number;
        }
    }

    /**
     * A string of at most {@code maxLength} characters passing {@code rule} (named by {@code ruleName}); null is
     * accepted when {@code nullable}. A default of null is shown as null, or left out when {@code omitWhenNull}.
     */
    public record Text(int maxLength, String fallback, boolean nullable, boolean omitWhenNull, Predicate<String> rule,
                       String ruleName) implements Leaf {
        @Override
        public Object defaultValue() {
            return fallback;
        }

        @Override
        public String expected() {
            return "a string of at most " + maxLength + " characters" + (ruleName == null ? "" : ", " + ruleName)
                    + (nullable ? ", or null" : "");
        }

        @Override
        public Object accept(Object value) {
            if (value == null) {
                return nullable ? null : INVALID;
            }
            if (!(value instanceof String text) || text.length() > maxLength || (rule != null && !rule.test(text))) {
                return INVALID;
            }
            return text;
        }
    }

    /** One of the listed strings (or null when {@code nullable}). */
    public record OneOf(List<String> values, String fallback, boolean nullable) implements Leaf {
        @Override
        public Object defaultValue() {
            return fallback;
        }

        @Override
        public String expected() {
            return "one of " + String.join(", ", values) + (nullable ? ", or null" : "");
        }

        @Override
        public Object accept(Object value) {
            if (value == null) {
                return nullable ? null : INVALID;
            }
            return value instanceof String text && values.contains(text) ? text : INVALID;
        }
    }

    /** A list of at most {@code maxItems} distinct non-blank strings of at most {@code maxLength} characters. */
    public record Words(int maxItems, int maxLength, List<String> fallback) implements Leaf {
        @Override
        public Object defaultValue() {
            return new ArrayList<>(fallback);
        }

        @Override
        public String expected() {
            return "a list of at most " + maxItems + " distinct non-blank strings of at most " + maxLength + " characters";
        }

        @Override
        public Object accept(Object value) {
            if (!(value instanceof List<?> list) || list.size() > maxItems) {
                return INVALID;
            }
            Set<String> seen = new LinkedHashSet<>();
            for (Object item : list) {
                if (!(item instanceof String word) || word.isBlank() || word.length() > maxLength || !seen.add(word)) {
                    return INVALID;
                }
            }
            return new ArrayList<>(seen);
        }
    }

    /** What a PATCH would change (path to value, in the body's order) and what was wrong with it (path to problem). */
    public record Patch(Map<String, Object> changes, Map<String, String> problems) {
    }

    private final Map<String, Leaf> leaves = new LinkedHashMap<>();
    private final Map<String, Set<String>> groups = new LinkedHashMap<>();

    private SettingsSchema() {
        groups.put("", new LinkedHashSet<>());
    }

    /** Builds a schema; {@code define} adds its leaves in the order a read shows them. */
    public static SettingsSchema of(Consumer<Builder> define) {
        SettingsSchema schema = new SettingsSchema();
        define.accept(schema.new Builder());
        return schema;
    }

    /** Adds leaves and their groups. */
    public final class Builder {
        public Builder leaf(String path, Leaf leaf) {
            leaves.put(path, leaf);
            String parent = "";
            for (String name : path.split("\\.")) {
                String child = parent.isEmpty() ? name : parent + "." + name;
                groups.get(parent).add(name);
                if (!child.equals(path)) {
                    groups.computeIfAbsent(child, ignored -> new LinkedHashSet<>());
                }
                parent = child;
            }
            return this;
        }
    }

    public Map<String, Leaf> leaves() {
        return leaves;
    }

    /**
     * Checks a PATCH body (nested objects, any subset of the settings) against the schema; fields named in
     * {@code ignored} at the top level are skipped (a read's own metadata sent back unchanged).
     */
    public Patch patch(Map<String, ?> body, Set<String> ignored) {
        Map<String, Object> changes = new LinkedHashMap<>();
        Map<String, String> problems = new LinkedHashMap<>();
        walk("", body, ignored, changes, problems);
        return new Patch(changes, problems);
    }

    private void walk(String prefix, Map<String, ?> object, Set<String> ignored, Map<String, Object> changes,
                      Map<String, String> problems) {
        for (Map.Entry<String, ?> entry : object.entrySet()) {
            String path = prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey();
            if (prefix.isEmpty() && ignored.contains(entry.getKey())) {
                continue;
            }
            Leaf leaf = leaves.get(path);
            if (leaf != null) {
                Object accepted = leaf.accept(entry.getValue());
                if (accepted == INVALID) {
                    problems.put(path, "must be " + leaf.expected());
                } else {
                    changes.put(path, accepted);
                }
            } else if (groups.containsKey(path)) {
                if (entry.getValue() instanceof Map<?, ?> inner) {
                    @SuppressWarnings("unchecked")
                    Map<String, ?> typed = (Map<String, ?>) inner;
                    walk(path, typed, Set.of(), changes, problems);
                } else {
                    problems.put(path, "must be an object with any of: " + String.join(", ", groups.get(path)));
                }
            } else {
                problems.put(path, "unknown setting; allowed " + (prefix.isEmpty() ? "" : "in " + prefix + " ")
                        + "are: " + String.join(", ", new TreeSet<>(groups.get(prefix))));
            }
        }
    }

    /** The value of a setting: the one stored, else its default. */
    public Object value(String path, Map<String, ?> stored) {
        return stored.containsKey(path) ? stored.get(path) : leaves.get(path).defaultValue();
    }

    /** The settings as a read shows them: every setting, nested, the stored values over the defaults. */
    public Map<String, Object> render(Map<String, ?> stored) {
        Map<String, Object> document = new LinkedHashMap<>();
        leaves.forEach((path, leaf) -> {
            Object value = value(path, stored);
            if (value == null && leaf instanceof Text text && text.omitWhenNull()) {
                return;
            }
            String[] names = path.split("\\.");
            Map<String, Object> at = document;
            for (int i = 0; i < names.length - 1; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> next = (Map<String, Object>) at.computeIfAbsent(names[i], n -> new LinkedHashMap<>());
                at = next;
            }
            at.put(names[names.length - 1], value == null ? null : leaf.wire(value));
        });
        return document;
    }
}
