package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.http.MediaType;

/** Appends flow and state events as the command service would, and reads lists back. */
abstract class FlowQuerySupport extends QueryTestBase {

    long flow(Caller caller, String projectId, String flowId, String name, String description, long at) {
        return append(flowId, new FlowCreatedEvent(flowId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), name, description, caller.userId(), at));
    }

    long state(Caller caller, String projectId, String flowId, String stateId, String name, String type,
               boolean isDefault, List<String> intentIds, String createdBy, long at) {
        return append(flowId, new StateCreatedEvent(flowId, projectId, caller.organisationId(), stateId,
                UUID.randomUUID().toString(), name, type, isDefault, intentIds, createdBy, at));
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> page(String uri, Caller caller, long position) {
        return http.get().uri(uri)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .accept(MediaType.APPLICATION_JSON)
                .exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody(Map.class).returnResult().getResponseBody();
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

    /** Walks a list with next cursors from {@code first} and answers every id seen. */
    List<Object> walk(String base, String firstQuery, int limit, Caller caller, long position) {
        List<Object> seen = new ArrayList<>();
        Map<String, Object> page = page(base + firstQuery, caller, position);
        seen.addAll(ids(page));
        int guard = 0;
        while (page.get("nextCursor") != null) {
            page = page(base + "&limit=" + limit + "&next=" + page.get("nextCursor"), caller, position);
            seen.addAll(ids(page));
            assertThat(++guard).isLessThan(100);
        }
        return seen;
    }
}
