package ai.convo.contract.slotfiller;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The official client's slot filler rules, in one place for the write side's two checks (the request, then the
 * aggregate with the stored state): the types it knows, a valid pattern for {@code regex}, a slot for {@code slot},
 * and neither on another type.
 */
public final class SlotFillerRules {

    public static final String REGEX = "regex";
    public static final String SLOT = "slot";

    /** The client's slot filler types (TS 14300-14501). */
    public static final List<String> TYPES = List.of("age", "date", "duration", "email", "intent", "slot", "money",
            "number", "percentage", "regex", "temperature");

    public static final int MAX_NAME_LENGTH = 200;
    public static final int MAX_KEY_LENGTH = 200;
    public static final int MAX_REGEX_LENGTH = 1000;
    public static final int MAX_SLOT_LENGTH = 200;
    public static final int MAX_VALIDATION_LENGTH = 2000;

    /** A JavaScript literal as the vendor's editor writes it: /pattern/flags. */
    private static final Pattern LITERAL = Pattern.compile("^/(.*)/([dgimsuy]*)$", Pattern.DOTALL);

    private SlotFillerRules() {
    }

    /**
     * What is wrong with these settings taken together (field to problem; empty: nothing), beyond each field's
     * own kind and length, which the request reading checks.
     */
    public static Map<String, String> problems(SlotFillerSettings s) {
        Map<String, String> problems = new LinkedHashMap<>();
        if (s.name() == null || s.name().isBlank() || s.name().length() > MAX_NAME_LENGTH) {
            problems.put("name", "must be a string of 1 to " + MAX_NAME_LENGTH + " characters (not blank)");
        }
        if (s.type() == null || !TYPES.contains(s.type())) {
            problems.put("type", "must be one of " + String.join(", ", TYPES));
            return problems;
        }
        if (REGEX.equals(s.type())) {
            String wrong = regexProblem(s.regex());
            if (wrong != null) {
                problems.put("regex", wrong);
            }
        } else if (s.regex() != null) {
            problems.put("regex", "is only for a slot filler of type regex; this one is of type " + s.type());
        }
        if (SLOT.equals(s.type())) {
            if (s.slot() == null || s.slot().isBlank() || s.slot().length() > MAX_SLOT_LENGTH) {
                problems.put("slot", "is required for type slot: the slot's name, 1 to " + MAX_SLOT_LENGTH
                        + " characters (not blank)");
            }
        } else if (s.slot() != null) {
            problems.put("slot", "is only for a slot filler of type slot; this one is of type " + s.type());
        }
        return problems;
    }

    /** Why a pattern is not one (null: it is). A bare pattern or a /pattern/flags literal. */
    static String regexProblem(String regex) {
        if (regex == null || regex.isEmpty()) {
            return "is required for type regex: a regular expression (a pattern, or /pattern/flags) of 1 to "
                    + MAX_REGEX_LENGTH + " characters";
        }
        if (regex.length() > MAX_REGEX_LENGTH) {
            return "must be at most " + MAX_REGEX_LENGTH + " characters; got " + regex.length();
        }
        Matcher literal = LITERAL.matcher(regex);
        String pattern = literal.matches() ? literal.group(1) : regex;
        if (pattern.isEmpty()) {
            return "must be a non-empty regular expression";
        }
        try {
            Pattern.compile(pattern);
            return null;
        } catch (PatternSyntaxException e) {
            return "is not a valid regular expression: " + e.getDescription() + " near index " + e.getIndex();
        }
    }
}
