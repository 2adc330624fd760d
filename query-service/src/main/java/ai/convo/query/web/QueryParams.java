package ai.convo.query.web;

import ai.convo.contract.common.Ids;
import ai.convo.http.problem.ApiProblem;
import org.springframework.web.server.ServerWebExchange;

/** Validation of query parameters beyond the common list ones. */
public final class QueryParams {

    private QueryParams() {
    }

    /** An optional id parameter: absent is null, anything but 24 [a-z0-9] is a 400 naming it. */
    public static String optionalId(ServerWebExchange exchange, String name) {
        String value = exchange.getRequest().getQueryParams().getFirst(name);
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!Ids.isValid(value)) {
            throw ApiProblem.invalidParameter(name, name + " must be 24 characters of [a-z0-9]; got '"
                    + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "'.");
        }
        return value;
    }

    public static String pathId(String name, String value) {
        if (!Ids.isValid(value)) {
            throw ApiProblem.invalidParameter(name, name + " must be 24 characters of [a-z0-9]; got '"
                    + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "' (" + value.length()
                    + " characters).");
        }
        return value;
    }
}
