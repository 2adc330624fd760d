package ai.convo.http.param;

import ai.convo.http.problem.ApiProblem;
import java.util.List;
import java.util.Map;
import org.springframework.util.MultiValueMap;

/**
 * Every query parameter of this API takes one value. A repeated one is refused (400) wherever it is, before any
 * handler reads it: a handler reading the first value would otherwise answer for a different request than the
 * client meant (two projectIds: whose list?).
 */
public final class QueryParameters {

    private QueryParameters() {
    }

    /** Refuses the request when any parameter is given more than once (EagerFirewall, on every route). */
    public static void refuseRepeated(MultiValueMap<String, String> query) {
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            if (parameter.getValue().size() > 1) {
                throw repeated(parameter.getKey(), parameter.getValue().size());
            }
        }
    }

    /** The one value of {@code name}, or null when absent; a repeated one is the same 400 as on every route. */
    public static String single(MultiValueMap<String, String> query, String name) {
        List<String> values = query.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw repeated(name, values.size());
        }
        return values.get(0);
    }

    static ApiProblem repeated(String name, int times) {
        String shown = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        String detail = "The query parameter '" + shown + "' was given " + times + " times; every parameter of this API "
                + "takes one value: give it once.";
        return ApiProblem.invalidParameter(shown, detail);
    }
}
