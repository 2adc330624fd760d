package ai.convo.http.body;

import ai.convo.contract.common.StorableText;
import ai.convo.http.problem.ApiProblem;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * {@link StorableText} over a whole JSON document: every string and every field name, at any depth. Each client JSON
 * document (a body, an uploaded file, a form field holding JSON) passes here once, before anything reads its fields,
 * so no accessor and no later field can let such text through.
 */
public final class StorableJson {

    /** Enough to show a client the pattern without building a huge answer for a huge document. */
    private static final int MAX_PROBLEMS = 20;

    private StorableJson() {
    }

    /** Every place in {@code root} that cannot be stored, by path ({@code name}, {@code data.key}, {@code rules[2]}). */
    public static Map<String, Object> problems(JsonNode root) {
        Map<String, Object> problems = new LinkedHashMap<>();
        walk(root, "", problems);
        return problems;
    }

    /** Refuses {@code root} with one 400 naming every such place; {@code what} names the document ("The request body"). */
    public static void check(JsonNode root, String what) {
        Map<String, Object> problems = problems(root);
        if (!problems.isEmpty()) {
            throw refusal(what, problems);
        }
    }

    /** The one 400 for unstorable text, wherever it was found: {@code what} ("The upload") and each place's problem. */
    public static ApiProblem refusal(String what, Map<String, Object> problems) {
        StringBuilder detail = new StringBuilder(what).append(" holds text that cannot be stored: ");
        boolean first = true;
        for (Map.Entry<String, Object> problem : problems.entrySet()) {
            detail.append(first ? "" : "; ").append(problem.getKey()).append(' ').append(problem.getValue());
            first = false;
        }
        return ApiProblem.badRequest(detail.append('.').toString(), problems);
    }

    private static void walk(JsonNode node, String path, Map<String, Object> problems) {
        if (problems.size() >= MAX_PROBLEMS) {
            return;
        }
        if (node.isString()) {
            String problem = StorableText.problem(node.stringValue());
            if (problem != null) {
                problems.put(path.isEmpty() ? "(document)" : path, problem);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", problems);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String name = field.getKey();
                String nameProblem = StorableText.problem(name);
                if (nameProblem != null) {
                    String safe = name.replace('\0', '?');
                    problems.put((path.isEmpty() ? "" : path + ".") + safeName(safe), "is a field name that "
                            + nameProblem);
                    continue;
                }
                walk(field.getValue(), path.isEmpty() ? name : path + "." + name, problems);
            }
        }
    }

    /** A field name shown in a problem body is itself storable text (unpaired surrogates shown as '?'). */
    private static String safeName(String name) {
        StringBuilder safe = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                safe.append(c).append(name.charAt(++i));
            } else {
                safe.append(Character.isSurrogate(c) ? '?' : c);
            }
        }
        return safe.toString();
    }
}
