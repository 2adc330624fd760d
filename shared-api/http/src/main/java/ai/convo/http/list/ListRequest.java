package ai.convo.http.list;

import ai.convo.contract.common.Ids;
import ai.convo.http.param.QueryParameters;
import ai.convo.http.param.WholeNumbers;
import ai.convo.http.problem.ApiProblem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;

/**
 * The common list parameters (limit, skip, filter, sort, next, previous), validated once for every list.
 * Each bad value is a 400 that names the parameter and says what is allowed.
 */
public record ListRequest(int limit, int skip, String filter, List<SortKey> sort, String next, String previous) {

    public static final int DEFAULT_LIMIT = 25;
    public static final int MAX_LIMIT = 100;
    public static final int MAX_FILTER = 200;

    public static ListRequest parse(ServerWebExchange exchange, Set<String> sortableFields) {
        MultiValueMap<String, String> query = exchange.getRequest().getQueryParams();
        int limit = integer(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        int skip = integer(query, "skip", 0, 0, Integer.MAX_VALUE);
        String filter = single(query, "filter");
        if (filter != null && filter.length() > MAX_FILTER) {
            throw ApiProblem.invalidParameter("filter", "filter must be at most " + MAX_FILTER + " characters; got "
                    + filter.length() + ".");
        }
        if (filter != null && filter.isEmpty()) {
            filter = null;
        }
        List<SortKey> sort = sort(single(query, "sort"), sortableFields);
        String next = cursor(query, "next");
        String previous = cursor(query, "previous");
        if (next != null && previous != null) {
            throw ApiProblem.invalidParameter("next", "Use either next or previous, not both.");
        }
        if ((next != null || previous != null) && query.containsKey("skip")) {
            throw ApiProblem.invalidParameter("skip", "skip cannot be combined with a cursor (next or previous): "
                    + "a cursor already says where the page starts.");
        }
        return new ListRequest(limit, skip, filter, sort, next, previous);
    }

    public boolean hasCursor() {
        return next != null || previous != null;
    }

    private static String single(MultiValueMap<String, String> query, String name) {
        return QueryParameters.single(query, name);
    }

    private static int integer(MultiValueMap<String, String> query, String name, int fallback, int min, int max) {
        String raw = single(query, name);
        if (raw == null) {
            return fallback;
        }
        String range = max == Integer.MAX_VALUE ? "an integer of at least " + min : "an integer from " + min + " to " + max;
        Long value = WholeNumbers.parse(raw);
        if (value == null) {
            throw ApiProblem.invalidParameter(name, name + " must be " + range + "; got '" + abbreviate(raw)
                    + "' (a number is ASCII digits 0-9 only).");
        }
        if (value < min || value > max) {
            throw ApiProblem.invalidParameter(name, name + " must be " + range + "; got " + value + ".");
        }
        return value.intValue();
    }

    private static String cursor(MultiValueMap<String, String> query, String name) {
        String raw = single(query, name);
        if (raw == null) {
            return null;
        }
        if (!Ids.isValid(raw)) {
            throw ApiProblem.invalidParameter(name, name + " must be a cursor of 24 characters [a-z0-9] taken from "
                    + "an earlier response's " + name + "Cursor; got '" + abbreviate(raw) + "'.");
        }
        return raw;
    }

    static List<SortKey> sort(String raw, Set<String> allowed) {
        if (raw == null) {
            return List.of();
        }
        if (raw.isBlank()) {
            throw ApiProblem.invalidParameter("sort", "sort must not be empty; use field:asc or field:desc.");
        }
        List<SortKey> keys = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String part : raw.split(",", -1)) {
            if (part.isBlank()) {
                // "sort=," or "name,,createdAt": a key left out is a mistake, not "no order"
                throw ApiProblem.invalidParameter("sort", "sort has an empty key in '" + abbreviate(raw) + "'; give "
                        + "field:asc or field:desc, several separated by commas; sortable fields: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ".");
            }
            String[] pieces = part.trim().split(":", -1);
            String field = pieces[0].trim();
            if (!allowed.contains(field)) {
                throw ApiProblem.invalidParameter("sort", "Cannot sort by '" + abbreviate(field) + "'; sortable fields: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ".");
            }
            if (pieces.length > 2) {
                throw ApiProblem.invalidParameter("sort", "sort keys have the form field:asc or field:desc; got '"
                        + abbreviate(part) + "'.");
            }
            boolean ascending = true;
            if (pieces.length == 2) {
                String direction = pieces[1].trim().toLowerCase(java.util.Locale.ROOT);
                if (!direction.equals("asc") && !direction.equals("desc")) {
                    throw ApiProblem.invalidParameter("sort", "In sort, the direction of '" + field + "' must be asc or desc; got '"
                            + abbreviate(pieces[1]) + "'.");
                }
                ascending = direction.equals("asc");
            }
            if (!seen.add(field)) {
                throw ApiProblem.invalidParameter("sort", "'" + field + "' appears more than once in sort.");
            }
            keys.add(new SortKey(field, ascending));
        }
        return keys;
    }

    private static String abbreviate(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
