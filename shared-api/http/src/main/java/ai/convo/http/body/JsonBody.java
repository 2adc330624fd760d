package ai.convo.http.body;

import ai.convo.contract.common.Ids;
import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.server.ServerWebExchange;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A request body read field by field. Every problem is collected, so one 400 tells the client everything
 * that was wrong and what is allowed, instead of one mistake per round trip.
 */
public final class JsonBody {

    private final JsonNode root;
    private final Map<String, Object> errors = new LinkedHashMap<>();

    private JsonBody(JsonNode root) {
        this.root = root;
    }

    /** Parses a JSON object body. An empty body is {} when {@code required} is false. */
    public static JsonBody parse(ServerWebExchange exchange, byte[] raw, boolean required) {
        MediaType contentType = exchange.getRequest().getHeaders().getContentType();
        boolean empty = raw == null || raw.length == 0;
        if (!empty && contentType != null && !isJson(contentType)) {
            throw new ApiProblem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type '" + contentType
                    + "' is not supported; send the body as application/json.", Map.of());
        }
        if (empty) {
            if (required) {
                throw ApiProblem.badRequest("A JSON object body is required.");
            }
            return new JsonBody(Renderer.JSON.createObjectNode());
        }
        JsonNode node;
        try {
            node = Renderer.JSON.readTree(raw);
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw ApiProblem.badRequest("The request body is not valid JSON" + where + ".");
        }
        if (node == null || !node.isObject()) {
            throw ApiProblem.badRequest("The request body must be a JSON object.");
        }
        StorableJson.check(node, "The request body");
        return new JsonBody(node);
    }

    /** A JSON object found elsewhere than in a request body (e.g. one item of an uploaded file), read the same way. */
    public static JsonBody of(JsonNode object) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a JSON object is required");
        }
        StorableJson.check(object, "The request body");
        return new JsonBody(object);
    }

    private static boolean isJson(MediaType type) {
        return type.getType().equals("application")
                && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
    }

    /** Refuses fields the operation does not know: a typo must not be silently ignored. */
    public JsonBody allowOnly(Collection<String> allowed) {
        for (String name : root.propertyNames()) {
            if (!allowed.contains(name)) {
                errors.put(name, "unknown field; allowed: " + String.join(", ", new TreeSet<>(allowed)));
            }
        }
        return this;
    }

    /** The whole body as plain Java values (maps, lists, strings, numbers, booleans, null), for free-form shapes. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> asMap() {
        return Renderer.JSON.convertValue(root, Map.class);
    }

    public boolean has(String field) {
        return root.has(field);
    }

    public boolean isNull(String field) {
        return root.has(field) && root.get(field).isNull();
    }

    public String requiredString(String field, int min, int max) {
        if (!root.has(field) || root.get(field).isNull()) {
            errors.put(field, "is required: a string of " + min + " to " + max + " characters");
            return null;
        }
        return string(field, min, max);
    }

    public String optionalString(String field, int min, int max) {
        if (!root.has(field)) {
            return null;
        }
        if (root.get(field).isNull()) {
            errors.put(field, "must be a string of " + min + " to " + max + " characters, not null");
            return null;
        }
        return string(field, min, max);
    }

    private String string(String field, int min, int max) {
        JsonNode node = root.get(field);
        if (!node.isString()) {
            errors.put(field, "must be a string of " + min + " to " + max + " characters; got " + kind(node));
            return null;
        }
        String value = node.stringValue();
        if (value.length() < min || value.length() > max || (min > 0 && value.isBlank())) {
            errors.put(field, "must be a string of " + min + " to " + max + " characters"
                    + (min > 0 ? " (not blank)" : "") + "; got " + value.length() + " characters");
            return null;
        }
        return value;
    }

    public Boolean optionalBoolean(String field) {
        if (!root.has(field)) {
            return null;
        }
        JsonNode node = root.get(field);
        if (!node.isBoolean()) {
            errors.put(field, "must be true or false; got " + kind(node));
            return null;
        }
        return node.booleanValue();
    }

    public Long requiredLong(String field, long min, long max) {
        if (!root.has(field) || root.get(field).isNull()) {
            errors.put(field, "is required: an integer from " + min + " to " + max);
            return null;
        }
        return longValue(field, min, max);
    }

    public Long optionalLong(String field, long min, long max) {
        if (!root.has(field)) {
            return null;
        }
        return longValue(field, min, max);
    }

    private Long longValue(String field, long min, long max) {
        JsonNode node = root.get(field);
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < min || node.longValue() > max) {
            errors.put(field, "must be an integer from " + min + " to " + max + "; got " + kind(node));
            return null;
        }
        return node.longValue();
    }

    public String requiredId(String field) {
        if (!root.has(field) || root.get(field).isNull()) {
            errors.put(field, "is required: an id of 24 characters [a-z0-9]");
            return null;
        }
        return id(field);
    }

    /** An id, or null when absent; {@link #isNull(String)} tells an explicit null apart. */
    public String optionalId(String field) {
        if (!root.has(field) || root.get(field).isNull()) {
            return null;
        }
        return id(field);
    }

    private String id(String field) {
        JsonNode node = root.get(field);
        if (!node.isString() || !Ids.isValid(node.stringValue())) {
            errors.put(field, "must be an id of 24 characters [a-z0-9]; got " + kind(node));
            return null;
        }
        return node.stringValue();
    }

    public <E> E requiredEnum(String field, Function<String, Optional<E>> parser, List<String> allowed) {
        if (!root.has(field) || root.get(field).isNull()) {
            errors.put(field, "is required: one of " + String.join(", ", allowed));
            return null;
        }
        return enumValue(field, parser, allowed);
    }

    public <E> E optionalEnum(String field, Function<String, Optional<E>> parser, List<String> allowed) {
        if (!root.has(field)) {
            return null;
        }
        return enumValue(field, parser, allowed);
    }

    private <E> E enumValue(String field, Function<String, Optional<E>> parser, List<String> allowed) {
        JsonNode node = root.get(field);
        Optional<E> value = node.isString() ? parser.apply(node.stringValue()) : Optional.empty();
        if (value.isEmpty()) {
            errors.put(field, "must be one of " + String.join(", ", allowed) + "; got " + kind(node));
            return null;
        }
        return value.get();
    }

    /** Throws one 400 listing every invalid field, if there is any. */
    public void validate() {
        validate(Map.of());
    }

    /**
     * Throws one 400 listing every invalid field, this body's and {@code more} (found by a caller that checks
     * shapes this class does not know), if there is any.
     */
    public void validate(Map<String, ?> more) {
        Map<String, Object> all = new LinkedHashMap<>(errors);
        all.putAll(more);
        if (all.isEmpty()) {
            return;
        }
        StringBuilder detail = new StringBuilder("The request body is invalid: ");
        boolean first = true;
        for (Map.Entry<String, Object> error : all.entrySet()) {
            if (!first) {
                detail.append("; ");
            }
            detail.append(error.getKey()).append(' ').append(error.getValue());
            first = false;
        }
        throw ApiProblem.badRequest(detail.append('.').toString(), all);
    }

    public static Set<String> fields(String... names) {
        return Set.of(names);
    }

    /** How a wrong value is named in a problem: the value itself (strings cut at 40 characters) or its kind. */
    public static String kind(JsonNode node) {
        if (node.isNull()) {
            return "null";
        }
        if (node.isString()) {
            String text = node.stringValue();
            return "'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'";
        }
        if (node.isBoolean() || node.isNumber()) {
            return node.toString();
        }
        return node.isArray() ? "an array" : "an object";
    }
}
