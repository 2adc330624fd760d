package ai.convo.command.knowledge;

import ai.convo.contract.knowledge.SourceType;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.Renderer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.server.ServerWebExchange;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * A store or source body: the scalar fields through {@link JsonBody}, plus a source's {@code metaData.tags} and
 * {@code data}. Every problem of both kinds ends up in one 400 that names the field and what is allowed.
 */
final class KnowledgeBody {

    private final JsonBody body;
    private final JsonNode root;
    private final Map<String, Object> errors = new LinkedHashMap<>();

    private KnowledgeBody(JsonBody body, JsonNode root) {
        this.body = body;
        this.root = root;
    }

    static KnowledgeBody parse(ServerWebExchange exchange, byte[] raw, boolean required, Collection<String> allowed) {
        JsonBody body = JsonBody.parse(exchange, raw, required).allowOnly(allowed);
        JsonNode root = raw == null || raw.length == 0 ? Renderer.JSON.createObjectNode() : Renderer.JSON.readTree(raw);
        return new KnowledgeBody(body, root);
    }

    JsonBody scalars() {
        return body;
    }

    /** {@code metaData.tags}: null when {@code metaData} or its {@code tags} is absent; metaData holds nothing else. */
    List<String> optionalTags() {
        if (!root.has("metaData")) {
            return null;
        }
        JsonNode metaData = root.get("metaData");
        if (!metaData.isObject()) {
            errors.put("metaData", "must be an object with tags, an array of strings; got " + kind(metaData));
            return null;
        }
        for (String name : metaData.propertyNames()) {
            if (!name.equals("tags")) {
                errors.put("metaData." + name, "unknown field; allowed: tags");
            }
        }
        if (!metaData.has("tags")) {
            return null;
        }
        JsonNode tags = metaData.get("tags");
        if (!tags.isArray()) {
            errors.put("metaData.tags", KnowledgeRules.TAGS_RULE + "; got " + kind(tags));
            return null;
        }
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < tags.size(); i++) {
            if (!tags.get(i).isString()) {
                errors.put("metaData.tags", KnowledgeRules.TAGS_RULE + "; tag " + i + " is " + kind(tags.get(i)));
                return null;
            }
            strings.add(tags.get(i).stringValue());
        }
        String problem = KnowledgeRules.tagsProblem(strings);
        if (problem != null) {
            errors.put("metaData.tags", problem.substring("metaData.tags ".length()));
            return null;
        }
        return List.copyOf(strings);
    }

    /** {@code data}: null when absent; an object of string, number or boolean values within the vendor's limits. */
    Map<String, Object> optionalData() {
        if (!root.has("data")) {
            return null;
        }
        JsonNode data = root.get("data");
        if (!data.isObject()) {
            errors.put("data", KnowledgeRules.DATA_RULE + "; got " + kind(data));
            return null;
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (String key : data.propertyNames()) {
            JsonNode value = data.get(key);
            // Containers and null stay visible to the rule as "an object"/"an array"/"null", never as their text.
            values.put(key, value.isValueNode() && !value.isNull()
                    ? Renderer.JSON.convertValue(value, new TypeReference<Object>() { })
                    : value.isArray() ? List.of() : value.isNull() ? null : Map.of());
        }
        String problem = KnowledgeRules.dataProblem(values);
        if (problem != null) {
            errors.put("data", problem.substring("data ".length()));
            return null;
        }
        return values;
    }

    /** The longest URL a {@code url} source takes: the longest value its data holds. */
    static final int MAX_URL_LENGTH = KnowledgeRules.MAX_DATA_VALUE_LENGTH;

    /**
     * The official client's {@code url} of a {@code url} source: an absolute http or https URL, kept as the source's
     * {@code data.url} (so the stored shape stays what it was): {@code data} with it, or {@code data} as it was when
     * absent. An error for any other type, when {@code data.url} says something else, or when the data with it
     * breaks the data rule.
     */
    Map<String, Object> withUrl(SourceType type, Map<String, Object> data) {
        if (!root.has("url")) {
            return data;
        }
        JsonNode node = root.get("url");
        String rule = "must be an absolute http or https URL of at most " + MAX_URL_LENGTH + " characters";
        if (type != null && type != SourceType.URL) {
            errors.put("url", "applies to sources of type url only; this source's type is " + type.code());
            return data;
        }
        if (!node.isString()) {
            errors.put("url", rule + "; got " + kind(node));
            return data;
        }
        String url = node.stringValue();
        if (url.length() > MAX_URL_LENGTH || !absoluteHttp(url)) {
            errors.put("url", rule + "; got \"" + (url.length() > 80 ? url.substring(0, 80) + "..." : url) + "\"");
            return data;
        }
        if (data != null && data.containsKey("url") && !url.equals(data.get("url"))) {
            errors.put("url", "differs from data.url; send one of them, or the same value in both");
            return data;
        }
        Map<String, Object> merged = new LinkedHashMap<>(data == null ? Map.of() : data);
        merged.put("url", url);
        String problem = KnowledgeRules.dataProblem(merged);
        if (problem != null) {
            errors.put("url", "with it, data " + problem.substring("data ".length()));
            return data;
        }
        return merged;
    }

    private static boolean absoluteHttp(String url) {
        try {
            java.net.URI uri = new java.net.URI(url);
            return uri.isAbsolute() && uri.getHost() != null && !uri.getHost().isEmpty()
                    && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()));
        } catch (java.net.URISyntaxException e) {
            return false;
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
