package ai.convo.command.intent;

import ai.convo.contract.common.StorableText;
import ai.convo.http.body.StorableJson;
import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The intent files of exportIntents and importIntents, in the two formats the official client names.
 *
 * <p>{@code csv}: the vendor's intent CSV, no header, one row per value: intent name, property type
 * ({@code exampleSentence}, {@code confirmationSentence}, {@code rules}), value. Written with commas and RFC 4180
 * quoting; read with comma, semicolon or tab, whichever the first row uses. It holds what those rows hold, so an
 * intent with none of them is not in a CSV file. {@code json}: an array of whole intents (every field a create
 * takes, with the parent and childFeatures by intent name instead of id, and {@code exampleSentences}).
 *
 * <p>Intents are written sorted by name and sentences in the order they were created, and an import creates them in
 * file order: exporting what an import made gives the same file back.
 */
final class IntentFile {

    static final List<String> FORMATS = List.of("csv", "json");
    static final int MAX_INTENTS = 10_000;
    static final List<String> CSV_PROPERTIES = List.of("exampleSentence", "confirmationSentence", "rules");

    private static final Set<String> JSON_FIELDS = Set.of("name", "description", "tags", "isRejectIntent", "isDisabled",
            "parentIntentName", "condition", "confirmationSentences", "disambiguationSentence", "rules", "data",
            "childFeatures", "biasTowardsParentOrChildIntents", "exampleSentences");
    // parsed apart from IntentController's fields: they name intents instead of holding ids
    private static final Set<String> BY_NAME = Set.of("parentIntentName", "childFeatures", "exampleSentences");

    /**
     * One intent of a file. A null field is one the file does not hold (a CSV holds only the three lists);
     * {@code childFeatures} is a Boolean or a list of intent names.
     */
    record Entry(String name, String description, List<String> tags, Boolean rejectIntent, Boolean disabled,
                 boolean parentPresent, String parentName, String condition, List<String> confirmationSentences,
                 String disambiguationSentence, List<String> rules, Map<String, Object> data, Object childFeatures,
                 boolean biasPresent, String bias, List<String> exampleSentences) {

        static Entry csv(String name, List<String> sentences, List<String> confirmations, List<String> rules) {
            return new Entry(name, null, null, null, null, false, null, null, confirmations, null, rules, null, null,
                    false, null, sentences);
        }

        /** The intent names this entry links to: its parent and its childFeatures. */
        List<String> linkedNames() {
            List<String> names = new ArrayList<>();
            if (parentName != null) {
                names.add(parentName);
            }
            if (childFeatures instanceof List<?> list) {
                list.forEach(name -> names.add((String) name));
            }
            return names;
        }
    }

    private IntentFile() {
    }

    static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    static String contentType(String format) {
        return format.equals("csv") ? "text/csv; charset=utf-8" : "application/json";
    }

    // ---- writing

    static byte[] write(String format, List<Entry> sortedEntries) {
        return format.equals("csv") ? csv(sortedEntries) : json(sortedEntries);
    }

    private static byte[] csv(List<Entry> entries) {
        StringBuilder out = new StringBuilder();
        for (Entry e : entries) {
            e.exampleSentences().forEach(value -> row(out, e.name(), "exampleSentence", value));
            e.confirmationSentences().forEach(value -> row(out, e.name(), "confirmationSentence", value));
            e.rules().forEach(value -> row(out, e.name(), "rules", value));
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void row(StringBuilder out, String name, String property, String value) {
        out.append(quoted(name)).append(',').append(property).append(',').append(quoted(value)).append('\n');
    }

    private static String quoted(String value) {
        boolean plain = !value.isEmpty() && value.chars().noneMatch(c -> c == ',' || c == '"' || c == '\n'
                || c == '\r' || c == ';' || c == '\t') && value.strip().equals(value);
        return plain ? value : '"' + value.replace("\"", "\"\"") + '"';
    }

    private static byte[] json(List<Entry> entries) {
        List<Map<String, Object>> intents = new ArrayList<>();
        for (Entry e : entries) {
            Map<String, Object> intent = new LinkedHashMap<>();
            intent.put("name", e.name());
            intent.put("description", e.description());
            intent.put("tags", e.tags());
            intent.put("isRejectIntent", e.rejectIntent());
            intent.put("isDisabled", e.disabled());
            intent.put("parentIntentName", e.parentName());
            intent.put("condition", e.condition());
            intent.put("confirmationSentences", e.confirmationSentences());
            intent.put("disambiguationSentence", e.disambiguationSentence());
            intent.put("rules", e.rules());
            intent.put("data", e.data());
            intent.put("childFeatures", e.childFeatures());
            intent.put("biasTowardsParentOrChildIntents", e.bias());
            intent.put("exampleSentences", e.exampleSentences());
            intents.add(intent);
        }
        byte[] text = Renderer.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(intents);
        byte[] withNewline = new byte[text.length + 1];
        System.arraycopy(text, 0, withNewline, 0, text.length);
        withNewline[text.length] = '\n';
        return withNewline;
    }

    // ---- reading

    /**
     * The intents of an uploaded file, in file order: JSON when it starts with '[' (after white space), CSV otherwise.
     * Anything wrong is a 400 naming the line (CSV) or the intent (JSON) and what is allowed; names must be unique
     * ignoring case, as in a flow.
     */
    static List<Entry> read(byte[] bytes) {
        String text = utf8(bytes);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        int unstorable = StorableText.firstUnstorable(text);
        if (unstorable >= 0) {
            throw refused("Line " + lineOf(text, unstorable) + " of the file "
                    + StorableText.problem(text.substring(lineStart(text, unstorable))) + ".");
        }
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw refused("The file is empty; it must hold intents as CSV (name, property type, value) or a JSON array.");
        }
        List<Entry> entries = trimmed.charAt(0) == '[' ? readJson(trimmed) : readCsv(text);
        if (entries.size() > MAX_INTENTS) {
            throw tooMany(entries.size());
        }
        Map<String, String> seen = new LinkedHashMap<>();
        for (Entry e : entries) {
            String earlier = seen.putIfAbsent(key(e.name()), e.name());
            if (earlier != null) {
                throw refused("The file names the intent '" + e.name() + "' twice (as '" + earlier + "'); intent names "
                        + "are unique per flow, ignoring case.");
            }
        }
        for (Entry e : entries) {
            if (e.exampleSentences().size() > IntentAggregate.MAX_SENTENCES) {
                throw refused("Intent '" + e.name() + "' has " + e.exampleSentences().size() + " example sentences; "
                        + "an intent holds at most " + IntentAggregate.MAX_SENTENCES + ".");
            }
            if (e.parentName() != null && key(e.parentName()).equals(key(e.name()))) {
                throw refused("Intent '" + e.name() + "' names itself as its parent.");
            }
        }
        return entries;
    }

    private static ApiProblem tooMany(int intents) {
        return refused("The file holds " + intents + " intents; at most " + MAX_INTENTS + " are imported at once.");
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw refused("The file is not UTF-8 text; save it as UTF-8.");
        }
    }

    private static List<Entry> readJson(String text) {
        JsonNode root;
        try {
            root = Renderer.JSON.readTree(text);
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw refused("The file is not valid JSON" + where + ".");
        }
        // counted before each intent is checked: the file's size bounds the work, not a multiple of it
        if (root.size() > MAX_INTENTS) {
            throw tooMany(root.size());
        }
        Map<String, Object> unstorableText = StorableJson.problems(root);
        if (!unstorableText.isEmpty()) {
            // before any name is quoted in a problem: the quote would carry the text along
            Map.Entry<String, Object> first = unstorableText.entrySet().iterator().next();
            throw refused("The file holds text that cannot be stored: intent " + first.getKey() + " " + first.getValue() + ".");
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode item = root.get(i);
            if (!item.isObject()) {
                throw refused("Intent " + i + " of the file is " + ai.convo.http.body.JsonBody.kind(item)
                        + "; each must be a JSON object.");
            }
            entries.add(jsonEntry(i, (ObjectNode) item));
        }
        return entries;
    }

    private static Entry jsonEntry(int index, ObjectNode item) {
        String label = "Intent " + index + (item.path("name").isString() ? " ('" + abbreviate(item.get("name").stringValue())
                + "')" : "") + " of the file";
        ObjectNode plain = item.deepCopy();
        BY_NAME.forEach(plain::remove);
        ObjectNode byName = Renderer.JSON.createObjectNode();
        BY_NAME.stream().filter(item::has).forEach(field -> byName.set(field, item.get(field)));
        IntentBody body = IntentBody.of(plain, JSON_FIELDS);
        IntentBody named = IntentBody.of(byName, JSON_FIELDS);
        String name = body.scalars().requiredString("name", 1, IntentController.NAME_MAX);
        IntentController.Fields fields = IntentController.fields(body);
        List<String> sentences = named.optionalStrings("exampleSentences", IntentAggregate.MAX_SENTENCES, 1,
                IntentController.TEXT_MAX);
        Object childFeatures = null;
        if (byName.has("childFeatures")) {
            childFeatures = byName.get("childFeatures").isBoolean() ? byName.get("childFeatures").booleanValue()
                    : named.optionalStrings("childFeatures", IntentController.CHILD_FEATURES_MAX, 1,
                            IntentController.NAME_MAX);
        }
        try {
            body.validate();
            named.validate();
        } catch (ApiProblem invalid) {
            throw refused(label + " is invalid: " + invalid.detail().replaceFirst("^The request body is invalid: ", ""));
        }
        boolean parentPresent = item.has("parentIntentName");
        String parent = null;
        if (parentPresent && !item.get("parentIntentName").isNull()) {
            JsonNode node = item.get("parentIntentName");
            if (!node.isString() || node.stringValue().isBlank() || node.stringValue().length() > IntentController.NAME_MAX) {
                throw refused(label + " is invalid: parentIntentName must be the name of an intent (in the file or "
                        + "the flow) or null; got " + ai.convo.http.body.JsonBody.kind(node) + ".");
            }
            parent = node.stringValue();
        }
        if (childFeatures instanceof List<?> list) {
            childFeatures = List.copyOf(new java.util.LinkedHashSet<>(list));
        }
        return new Entry(name, fields.description(), fields.tags(), fields.reject(), fields.disabled(), parentPresent,
                parent, fields.condition(), fields.confirmations(), fields.disambiguation(), fields.rules(), fields.data(),
                childFeatures, item.has("biasTowardsParentOrChildIntents"),
                fields.bias() == null ? null : fields.bias().code(), sentences == null ? List.of() : sentences);
    }

    private static List<Entry> readCsv(String text) {
        char delimiter = delimiter(firstLine(text));
        Map<String, List<List<String>>> byName = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        List<List<String>> rows = records(text, delimiter);
        int line = 0;
        for (List<String> row : rows) {
            line++; // a row: a quoted value may span physical lines
            if (row.size() == 1 && row.get(0).isEmpty()) {
                continue;
            }
            if (row.size() < 3) {
                throw refused("Row " + line + " of the file has " + row.size() + " column(s); each row needs three: "
                        + "intent name, property type (" + String.join(", ", CSV_PROPERTIES) + ") and value.");
            }
            String name = row.get(0).strip();
            String property = row.get(1).strip();
            // a value with unquoted delimiters in it is taken whole
            String value = String.join(String.valueOf(delimiter), row.subList(2, row.size()));
            if (name.isEmpty() || name.length() > IntentController.NAME_MAX) {
                throw refused("Row " + line + " of the file has an intent name of " + name.length()
                        + " characters; it must have 1 to " + IntentController.NAME_MAX + ".");
            }
            int kind = CSV_PROPERTIES.indexOf(property);
            if (kind < 0) {
                throw refused("Row " + line + " of the file has the property type '" + abbreviate(property)
                        + "'; allowed: " + String.join(", ", CSV_PROPERTIES)
                        + (property.equals("defaultReply") ? " (intents here have no default replies)" : "") + ".");
            }
            if (value.isBlank() || value.length() > IntentController.TEXT_MAX) {
                throw refused("Row " + line + " of the file has a value of " + value.length() + " characters; it must "
                        + "have 1 to " + IntentController.TEXT_MAX + " and not be blank.");
            }
            String earlier = names.putIfAbsent(key(name), name);
            if (earlier != null && !earlier.equals(name)) {
                throw refused("Row " + line + " of the file names the intent '" + name + "', which differs from '"
                        + earlier + "' only in case; intent names are unique per flow, ignoring case.");
            }
            List<List<String>> lists = byName.computeIfAbsent(name, n -> List.of(new ArrayList<>(), new ArrayList<>(),
                    new ArrayList<>()));
            lists.get(kind).add(value);
        }
        List<Entry> entries = new ArrayList<>();
        byName.forEach((name, lists) -> {
            int max = IntentController.SENTENCE_LIST_MAX;
            if (lists.get(1).size() > max || lists.get(2).size() > max) {
                throw refused("Intent '" + name + "' has " + Math.max(lists.get(1).size(), lists.get(2).size())
                        + " confirmationSentence or rules rows; an intent holds at most " + max + " of each.");
            }
            entries.add(Entry.csv(name, List.copyOf(lists.get(0)), List.copyOf(lists.get(1)), List.copyOf(lists.get(2))));
        });
        return entries;
    }

    /** The first line that is not blank, found without splitting the whole file. */
    private static String firstLine(String text) {
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            String line = text.substring(start, end > start && text.charAt(end - 1) == '\r' ? end - 1 : end);
            if (!line.isBlank()) {
                return line;
            }
            start = end + 1;
        }
        return "";
    }

    /** The delimiter whose split of the first row gives a known property type in the second column; ',' otherwise. */
    private static char delimiter(String firstLine) {
        for (char candidate : new char[] {',', ';', '\t'}) {
            List<List<String>> first = records(firstLine, candidate);
            if (!first.isEmpty() && first.get(0).size() >= 3 && (CSV_PROPERTIES.contains(first.get(0).get(1).strip())
                    || first.get(0).get(1).strip().equals("defaultReply"))) {
                return candidate;
            }
        }
        return ',';
    }

    /** RFC 4180 records: quoted fields may hold delimiters, quotes (doubled) and line breaks. */
    private static List<List<String>> records(String text, char delimiter) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        // whether the field so far is white space, kept as it grows: asking the field itself on every quote re-read it
        // (a value of many quotes took time in the square of its length)
        boolean blank = true;
        boolean quoted = false;
        int line = 1;
        int quoteLine = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    blank = false;
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    field.append(c);
                    blank = blank && Character.isWhitespace(c);
                }
            } else if (c == '"' && blank) {
                field.setLength(0);
                quoted = true;
                quoteLine = line;
            } else if (c == delimiter) {
                record.add(field.toString());
                field.setLength(0);
                blank = true;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                record.add(field.toString());
                records.add(record);
                record = new ArrayList<>();
                field.setLength(0);
                blank = true;
                line++;
            } else {
                field.append(c);
                blank = blank && Character.isWhitespace(c);
            }
        }
        if (quoted) {
            throw refused("A quoted field that starts on line " + quoteLine + " of the file is never closed.");
        }
        if (!field.isEmpty() || !record.isEmpty()) {
            record.add(field.toString());
            records.add(record);
        }
        return records;
    }

    static Optional<String> format(String value) {
        return FORMATS.contains(value) ? Optional.of(value) : Optional.empty();
    }

    private static String abbreviate(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }

    /** The 1-based line of the character at {@code index}. */
    private static int lineOf(String text, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static int lineStart(String text, int index) {
        return text.lastIndexOf('\n', index - 1) + 1;
    }

    static ApiProblem refused(String detail) {
        return new ApiProblem(org.springframework.http.HttpStatus.BAD_REQUEST, detail, Map.of("file", detail));
    }
}
