package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** What every list test does with a page: its items and ids, the promised order of a field, a cursor walk. */
final class ListPages {

    private ListPages() {
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> items(Map<String, Object> page) {
        return (List<Map<String, Object>>) page.get("items");
    }

    static List<String> ids(Map<String, Object> page) {
        return items(page).stream().map(item -> (String) item.get("_id")).toList();
    }

    /** The order the list promises for a field: case-insensitive text, numbers, booleans, lists as joined text. */
    @SuppressWarnings("unchecked")
    static Comparable<Object> sortable(Object value) {
        if (value == null) {
            return (Comparable<Object>) (Object) "";
        }
        if (value instanceof List<?> list) {
            return (Comparable<Object>) (Object) String.join(",", list.stream().map(String::valueOf).toList());
        }
        if (value instanceof String s) {
            return (Comparable<Object>) (Object) s.toLowerCase();
        }
        if (value instanceof Number n) {
            return (Comparable<Object>) (Object) n.longValue();
        }
        return (Comparable<Object>) value;
    }

    /** The items in the order a list sorted by {@code field} must answer, ties broken by _id in the same direction. */
    static List<Map<String, Object>> sortedBy(List<Map<String, Object>> all, String field, boolean ascending) {
        Function<Map<String, Object>, Comparable<Object>> key = m -> sortable(m.get(field));
        Comparator<Map<String, Object>> order = Comparator.comparing(key);
        order = order.thenComparing(m -> (String) m.get("_id"));
        if (!ascending) {
            order = order.reversed();
        }
        List<Map<String, Object>> expected = new ArrayList<>(all);
        expected.sort(order);
        return expected;
    }

    /** Fetches {@code first}, then follows next cursors {@code limit} at a time; answers every id seen. */
    static List<Object> walk(Function<String, Map<String, Object>> fetch, String first, int limit) {
        List<Object> seen = new ArrayList<>();
        Map<String, Object> page = fetch.apply(first);
        seen.addAll(ids(page));
        int guard = 0;
        while (page.get("nextCursor") != null) {
            page = fetch.apply("&limit=" + limit + "&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
            assertThat(++guard).isLessThan(100);
        }
        return seen;
    }
}
