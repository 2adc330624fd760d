package ai.convo.command.state;

import ai.convo.contract.common.Ids;
import ai.convo.contract.intent.IntentId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The one field of a state body that {@link JsonBody} cannot read: {@code intentIds}, an array of intent ids.
 * Its problems join JsonBody's, so one 400 still names every bad field at once.
 */
final class StateBody {

    static final int MAX_INTENT_IDS = 1000;

    private final Map<String, Object> errors = new LinkedHashMap<>();
    private final JsonNode root;

    /** {@code raw} must already have passed {@link JsonBody#parse} (a JSON object, or empty). */
    StateBody(byte[] raw) {
        this.root = raw == null || raw.length == 0 ? Renderer.JSON.createObjectNode() : Renderer.JSON.readTree(raw);
    }

    /** The intent ids, or null when the field is absent. Duplicates are kept here; the write model drops them. */
    List<IntentId> optionalIntentIds(String field) {
        if (!root.has(field)) {
            return null;
        }
        JsonNode node = root.get(field);
        String rule = "must be an array of at most " + MAX_INTENT_IDS + " intent ids (24 characters [a-z0-9])";
        if (!node.isArray()) {
            errors.put(field, rule + "; got " + (node.isNull() ? "null" : node.isString() ? "a string"
                    : node.isObject() ? "an object" : node.toString()));
            return null;
        }
        if (node.size() > MAX_INTENT_IDS) {
            errors.put(field, rule + "; got " + node.size() + " items");
            return null;
        }
        List<IntentId> ids = new ArrayList<>(node.size());
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (item.isString() && Ids.isValid(item.stringValue())) {
                ids.add(IntentId.of(item.stringValue()));
            } else {
                String shown = item.isString() ? "'" + abbreviate(item.stringValue()) + "'" : item.toString();
                bad.add("item " + i + " is " + abbreviate(shown));
            }
        }
        if (!bad.isEmpty()) {
            errors.put(field, rule + "; " + String.join(", ", bad));
            return null;
        }
        return ids;
    }

    /** Throws one 400 listing every invalid field of both readers, if there is any. */
    void validate(JsonBody body) {
        Map<String, Object> all = new LinkedHashMap<>();
        try {
            body.validate();
        } catch (ApiProblem problem) {
            all.putAll(problem.details());
        }
        all.putAll(errors);
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

    private static String abbreviate(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
