package ai.convo.contract.knowledge;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The limits of knowledge stores and sources, shared by the HTTP layer (one 400 listing every bad field) and
 * the aggregates (which enforce them whatever sends the command). Each check answers null when the value is
 * fine, else what is wrong and what is allowed.
 */
public final class KnowledgeRules {

    public static final int MAX_NAME_LENGTH = 200;
    public static final int MAX_DESCRIPTION_LENGTH = 1_000;
    public static final int MAX_TAGS = 30;
    public static final int MAX_TAG_LENGTH = 100;
    public static final int MAX_DATA_KEYS = 20;
    public static final int MAX_DATA_VALUE_LENGTH = 1_000;
    /** Letters, digits, '_' and '-', starting with a letter or '_': data keys are element names in XML answers. */
    public static final Pattern DATA_KEY = Pattern.compile("^[A-Za-z_][A-Za-z0-9_-]{0,63}$");
    public static final String DATA_RULE = "must be an object of at most " + MAX_DATA_KEYS + " keys matching "
            + DATA_KEY.pattern() + " whose values are strings of at most " + MAX_DATA_VALUE_LENGTH
            + " characters, numbers or booleans";
    public static final String TAGS_RULE = "must be an array of at most " + MAX_TAGS + " distinct strings of 1 to "
            + MAX_TAG_LENGTH + " characters (not blank)";
    /** The simulated ingestion cuts each data value into chunks of at most this many characters. */
    public static final int CHUNK_LENGTH = 500;

    /** The vendor's limits of chunks: per source, and characters of a chunk's text. */
    public static final int MAX_CHUNKS_PER_SOURCE = 1_000;
    public static final int MAX_CHUNK_TEXT_LENGTH = 2_000;
    /** A chunk's place in its source: 0 or more; chunks list in this order. */
    public static final int MAX_CHUNK_ORDER = 1_000_000;

    private KnowledgeRules() {
    }

    public static String chunkTextProblem(String text) {
        if (text == null || text.isBlank() || text.length() > MAX_CHUNK_TEXT_LENGTH) {
            return "text must be a string of 1 to " + MAX_CHUNK_TEXT_LENGTH + " characters (not blank)"
                    + (text == null ? "" : "; got " + text.length() + " characters" + (text.isBlank() ? ", blank" : ""))
                    + ".";
        }
        return null;
    }

    public static String chunkOrderProblem(Integer order) {
        if (order != null && (order < 0 || order > MAX_CHUNK_ORDER)) {
            return "order must be an integer from 0 to " + MAX_CHUNK_ORDER + "; got " + order + ".";
        }
        return null;
    }

    public static String nameProblem(String name) {
        if (name == null || name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            return "name must be a string of 1 to " + MAX_NAME_LENGTH + " characters (not blank)"
                    + (name == null ? "" : "; got " + name.length() + " characters") + ".";
        }
        return null;
    }

    public static String descriptionProblem(String description) {
        if (description == null || description.length() > MAX_DESCRIPTION_LENGTH) {
            return "description must be a string of at most " + MAX_DESCRIPTION_LENGTH + " characters"
                    + (description == null ? "" : "; got " + description.length()) + ".";
        }
        return null;
    }

    public static String tagsProblem(List<?> tags) {
        if (tags == null) {
            return "metaData.tags " + TAGS_RULE + "; got null.";
        }
        if (tags.size() > MAX_TAGS) {
            return "metaData.tags " + TAGS_RULE + "; got " + tags.size() + " tags.";
        }
        Set<Object> seen = new HashSet<>();
        for (int i = 0; i < tags.size(); i++) {
            Object tag = tags.get(i);
            if (!(tag instanceof String text) || text.isBlank() || text.length() > MAX_TAG_LENGTH) {
                return "metaData.tags " + TAGS_RULE + "; tag " + i + " is "
                        + (tag instanceof String text ? text.length() + " characters" + (text.isBlank() ? ", blank" : "")
                        : "not a string") + ".";
            }
            if (!seen.add(tag)) {
                return "metaData.tags " + TAGS_RULE + "; tag " + i + " '" + tag + "' repeats an earlier one.";
            }
        }
        return null;
    }

    public static String dataProblem(Map<String, ?> data) {
        if (data == null) {
            return "data " + DATA_RULE + "; got null.";
        }
        if (data.size() > MAX_DATA_KEYS) {
            return "data " + DATA_RULE + "; got " + data.size() + " keys.";
        }
        for (Map.Entry<String, ?> entry : data.entrySet()) {
            String key = entry.getKey();
            if (key == null || !DATA_KEY.matcher(key).matches()) {
                return "data " + DATA_RULE + "; key '" + shown(key) + "' does not match.";
            }
            Object value = entry.getValue();
            if (value instanceof String text) {
                if (text.length() > MAX_DATA_VALUE_LENGTH) {
                    return "data " + DATA_RULE + "; the value of '" + key + "' has " + text.length() + " characters.";
                }
            } else if (!(value instanceof Number) && !(value instanceof Boolean)) {
                return "data " + DATA_RULE + "; the value of '" + key + "' is "
                        + (value == null ? "null" : value instanceof List<?> ? "an array" : "an object") + ".";
            }
        }
        return null;
    }

    /**
     * What the simulated ingestion makes of a source's data: every non-blank value, as text, cut into chunks of
     * at most {@link #CHUNK_LENGTH} characters. Deterministic, so a replay or a retry counts the same.
     */
    public static int chunkCount(Map<String, ?> data) {
        int chunks = 0;
        for (Object value : data.values()) {
            String text = String.valueOf(value).strip();
            chunks += (text.length() + CHUNK_LENGTH - 1) / CHUNK_LENGTH;
        }
        return chunks;
    }

    private static String shown(String key) {
        if (key == null) {
            return "null";
        }
        return key.length() > 40 ? key.substring(0, 40) + "..." : key;
    }
}
