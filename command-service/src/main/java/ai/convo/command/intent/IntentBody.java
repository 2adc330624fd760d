package ai.convo.command.intent;

import ai.convo.contract.common.Ids;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.Renderer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.web.server.ServerWebExchange;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * An intent or sentence body: the scalar fields through {@link JsonBody}, plus the array and object fields
 * an intent has (tags, rules, data, childFeatures). Every problem of both kinds ends up in one 400.
 */
final class IntentBody {

    private final JsonBody body;
    private final JsonNode root;
    private final Map<String, Object> errors = new LinkedHashMap<>();

    private IntentBody(JsonBody body, JsonNode root) {
        this.body = body;
        this.root = root;
    }

    static IntentBody parse(ServerWebExchange exchange, byte[] raw, boolean required, Collection<String> allowed) {
        JsonBody body = JsonBody.parse(exchange, raw, required).allowOnly(allowed);
        JsonNode root = raw == null || raw.length == 0 ? Renderer.JSON.createObjectNode() : Renderer.JSON.readTree(raw);
        return new IntentBody(body, root);
    }

    /** An intent object of an uploaded file (see IntentFile), read as a request body would be. */
    static IntentBody of(JsonNode object, Collection<String> allowed) {
        return new IntentBody(JsonBody.of(object).allowOnly(allowed), object);
    }

    JsonBody scalars() {
        return body;
    }

    boolean has(String field) {
        return root.has(field);
    }

    /** An optional array of strings: null when absent; an explicit null is refused. */
    List<String> optionalStrings(String field, int maxItems, int minLength, int maxLength) {
        if (!root.has(field)) {
            return null;
        }
        JsonNode node = root.get(field);
        String rule = "must be an array of at most " + maxItems + " strings of " + minLength + " to " + maxLength
                + " characters";
        if (!node.isArray()) {
            errors.put(field, rule + "; got " + kind(node));
            return null;
        }
        if (node.size() > maxItems) {
            errors.put(field, rule + "; got " + node.size() + " items");
            return null;
        }
        List<String> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isString()) {
                errors.put(field, rule + "; item " + i + " is " + kind(item));
                return null;
            }
            String value = item.stringValue();
            if (value.length() < minLength || value.length() > maxLength || (minLength > 0 && value.isBlank())) {
                errors.put(field, rule + (minLength > 0 ? " (not blank)" : "") + "; item " + i + " has "
                        + value.length() + " characters");
                return null;
            }
            values.add(value);
        }
        return List.copyOf(values);
    }

    /** Keys of {@code data}: every one must also be a well-formed XML element name, since XML is a representation. */
    static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,99}");

    /**
     * An optional JSON object of at most {@code maxChars} characters as JSON text, whose keys (at every depth)
     * match {@link #KEY}: the same data is answered as XML elements, and other names would break the document.
     */
    Map<String, Object> optionalObject(String field, int maxChars) {
        if (!root.has(field)) {
            return null;
        }
        JsonNode node = root.get(field);
        if (!node.isObject()) {
            errors.put(field, "must be a JSON object; got " + kind(node));
            return null;
        }
        String badKey = badKey(node, field);
        if (badKey != null) {
            errors.put(field, "must have keys of 1 to 100 characters [A-Za-z0-9_.-] starting with a letter or '_' "
                    + "(they are XML element names in XML answers); " + badKey);
            return null;
        }
        int size = Renderer.JSON.writeValueAsString(node).length();
        if (size > maxChars) {
            errors.put(field, "must be a JSON object of at most " + maxChars + " characters as JSON; got " + size);
            return null;
        }
        return Renderer.JSON.convertValue(node, new TypeReference<LinkedHashMap<String, Object>>() { });
    }

    /** The path of the first key that does not match {@link #KEY}, or null. */
    private static String badKey(JsonNode node, String path) {
        if (node.isObject()) {
            for (String name : node.propertyNames()) {
                if (!KEY.matcher(name).matches()) {
                    String shown = name.length() > 40 ? name.substring(0, 40) + "..." : name;
                    return "'" + shown + "' at " + path + " is not";
                }
                String inner = badKey(node.get(name), path + "." + name);
                if (inner != null) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String inner = badKey(node.get(i), path + "[" + i + "]");
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** {@code childFeatures}: true, false, or an array of at most {@code maxIds} intent ids. */
    ChildFeatures optionalChildFeatures(String field, int maxIds) {
        if (!root.has(field)) {
            return null;
        }
        JsonNode node = root.get(field);
        String rule = "must be true, false or an array of at most " + maxIds + " intent ids (24 characters [a-z0-9])";
        if (node.isBoolean()) {
            return ChildFeatures.of(node.booleanValue());
        }
        if (!node.isArray() || node.size() > maxIds) {
            errors.put(field, rule + "; got " + (node.isArray() ? node.size() + " items" : kind(node)));
            return null;
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isString() || !Ids.isValid(item.stringValue())) {
                errors.put(field, rule + "; item " + i + " is " + kind(item));
                return null;
            }
            if (!ids.contains(item.stringValue())) {
                ids.add(item.stringValue());
            }
        }
        return ChildFeatures.of(ids);
    }

    /**
     * A field the official client sends that this server does not model (a sentence's {@code slots}): accepted
     * only empty, so nothing a client means is silently dropped.
     */
    void onlyEmptyArray(String field, String why) {
        if (root.has(field) && !(root.get(field).isArray() && root.get(field).isEmpty())) {
            errors.put(field, "must be an empty array (" + why + "); got " + kind(root.get(field)));
        }
    }

    /** Throws one 400 listing every invalid field of both kinds, if there is any. */
    void validate() {
        body.validate(errors);
    }

    private static String kind(JsonNode node) {
        return JsonBody.kind(node);
    }
}
