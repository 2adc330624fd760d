package ai.convo.query.history;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.persistence.upcasting.StoredEvents;
import ai.convo.query.eventlog.EventFacts;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET .../{resource}/{id}/history}: the changes of one resource (who, when, what), oldest first, with the
 * usual list mechanics. A resource with no event in the caller's organisation (or not under the parents in its
 * path) is a 404; a deleted one keeps its history. Each item's position is what {@code asOf} of a read takes.
 */
@RestController
public class HistoryQueryController {

    static final ListDefinition LIST = new ListDefinition("history", "event_history_view", Map.of(
            "createdAt", Column.number("position"),
            "position", Column.number("position"),
            "timestamp", Column.number("occurred_at"),
            "type", Column.text("event_type"),
            "_id", Column.text("id")), "event_type");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Reads reads;
    private final StoredEvents storedEvents;

    public HistoryQueryController(Reads reads, StoredEvents storedEvents) {
        this.reads = reads;
        this.storedEvents = storedEvents;
    }

    /**
     * A history route: the resource it names (what a 404 calls it, its type in the log, its path variable) and the
     * path variables of its parents with the payload field that holds each (a state's flowId).
     */
    private record Route(String what, String resourceType, String idName, Map<String, String> parents) {
    }

    /** The read-model table of each resource type: events that changed a row of it are in its history too. */
    private static final Map<String, String> TABLES = Map.ofEntries(Map.entry("project", "project_view"),
            Map.entry("locale", "locale_view"), Map.entry("snippet", "token_view"), Map.entry("function", "function_view"),
            Map.entry("flow", "flow_view"), Map.entry("flowState", "state_view"), Map.entry("intent", "intent_view"),
            Map.entry("examplesentence", "sentence_view"), Map.entry("knowledgeStore", "knowledge_store_view"),
            Map.entry("knowledgeSource", "knowledge_source_view"), Map.entry("snapshot", "snapshot_view"),
            Map.entry("task", "task_view"), Map.entry("functionInstance", "function_instance_view"));

    private static final Map<String, Route> ROUTES = Map.ofEntries(
            Map.entry("/v2.0/projects/{projectId}/history", new Route("Project", "project", "projectId", Map.of())),
            Map.entry("/v2.0/locales/{localeId}/history", new Route("Locale", "locale", "localeId", Map.of())),
            Map.entry("/v2.0/projects/{projectId}/snippets/{snippetId}/history",
                    new Route("Token", "snippet", "snippetId", Map.of("projectId", "projectId"))),
            Map.entry("/v2.0/functions/{functionId}/history", new Route("Function", "function", "functionId", Map.of())),
            Map.entry("/v2.0/flows/{flowId}/history", new Route("Flow", "flow", "flowId", Map.of())),
            Map.entry("/v2.0/flows/{flowId}/states/{stateId}/history",
                    new Route("State", "flowState", "stateId", Map.of("flowId", "flowId"))),
            Map.entry("/v2.0/flows/{flowId}/intents/{intentId}/history",
                    new Route("Intent", "intent", "intentId", Map.of("flowId", "flowId"))),
            Map.entry("/v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}/history",
                    new Route("Sentence", "examplesentence", "sentenceId", Map.of("flowId", "flowId", "intentId", "intentId"))),
            Map.entry("/v2.0/knowledgestores/{knowledgeStoreId}/history",
                    new Route("Knowledge store", "knowledgeStore", "knowledgeStoreId", Map.of())),
            Map.entry("/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/history",
                    new Route("Knowledge source", "knowledgeSource", "sourceId", Map.of("knowledgeStoreId", "storeId"))),
            Map.entry("/v2.0/snapshots/{snapshotId}/history", new Route("Snapshot", "snapshot", "snapshotId", Map.of())),
            Map.entry("/v2.0/tasks/{taskId}/history", new Route("Task", "task", "taskId", Map.of())),
            Map.entry("/v2.0/functions/{functionId}/instances/{instanceId}/history",
                    new Route("Function instance", "functionInstance", "instanceId", Map.of("functionId", "functionId"))));

    @GetMapping({"/v2.0/projects/{projectId}/history", "/v2.0/locales/{localeId}/history",
            "/v2.0/projects/{projectId}/snippets/{snippetId}/history", "/v2.0/functions/{functionId}/history",
            "/v2.0/flows/{flowId}/history", "/v2.0/flows/{flowId}/states/{stateId}/history",
            "/v2.0/flows/{flowId}/intents/{intentId}/history",
            "/v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}/history",
            "/v2.0/knowledgestores/{knowledgeStoreId}/history",
            "/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/history",
            "/v2.0/snapshots/{snapshotId}/history", "/v2.0/tasks/{taskId}/history",
            "/v2.0/functions/{functionId}/instances/{instanceId}/history"})
    public Mono<ResponseEntity<byte[]>> history(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @PathVariable Map<String, String> variables) {
        PathPattern matched = exchange.getRequiredAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        String pattern = matched.getPatternString();
        Route route = ROUTES.get(pattern.substring(pattern.indexOf("/v2.0/")));
        Map<String, String> parents = new java.util.LinkedHashMap<>();
        route.parents().forEach((variable, field) -> parents.put(field, QueryParams.pathId(variable, variables.get(variable))));
        return history(exchange, caller, route.what(), route.resourceType(), route.idName(),
                variables.get(route.idName()), parents);
    }

    /** {@code parents}: payload field to the id the path names it by (a state's flowId). */
    private Mono<ResponseEntity<byte[]>> history(ServerWebExchange exchange, ApiPrincipal caller, String what,
                                                 String resourceType, String idName, String id,
                                                 Map<String, String> parents) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId(idName, id);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String org = caller.organisationId();
        StringBuilder where = new StringBuilder("organisation_id = :org AND ((resource_type = :type AND resource_id = :id) "
                + "OR global_index IN (SELECT global_index FROM row_history WHERE table_name = :table AND row_id = :id))");
        Map<String, Object> binds = new HashMap<>(Map.of("org", org, "type", resourceType, "id", id,
                "table", TABLES.get(resourceType)));
        int i = 0;
        for (Map.Entry<String, String> parent : parents.entrySet()) {
            // Every event of these resources names its parents; one under another parent is not this one.
            where.append(" AND payload ->> '").append(parent.getKey()).append("' = :p").append(i);
            binds.put("p" + i++, parent.getValue());
        }
        Scope scope = new Scope(where.toString(), binds, "history|" + org + "|" + resourceType + "|" + id);
        String path = parents.isEmpty() ? "" : " under " + parents;
        // The resource is visible when the organisation has any event of it (its deletion included).
        return reads.page(exchange, media, LIST, request, scope, new Parent("SELECT 1 FROM event_history_view WHERE "
                + where + " LIMIT 1", binds, what + " " + id + path), this::wire);
    }

    Map<String, Object> wire(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("position", row.get("position", Long.class));
        wire.put("type", row.get("event_type", String.class));
        wire.put("timestamp", Instant.ofEpochMilli(row.get("occurred_at", Long.class)).toString());
        wire.put("user", row.get("actor_email", String.class));
        wire.put("userReference", row.get("actor_id", String.class));
        wire.put("payload", payload(row));
        return wire;
    }

    /**
     * The payload in its current shape: the stored one (secrets already removed by the view) through the upcaster
     * chain, as the event log and the processors read it. The view's SQL filters on parent ids read the stored shape:
     * a parent id field is never renamed (see docs/events.md).
     */
    private Map<?, ?> payload(Readable row) {
        byte[] payload = row.get("payload", Json.class).asArray();
        if (storedEvents.upcasting()) {
            List<IntermediateEventRepresentation> current = storedEvents.current(StoredEvents.row(
                    row.get("aggregate_type", String.class), row.get("aggregate_identifier", String.class),
                    row.get("sequence_number", Long.class), row.get("id", String.class),
                    row.get("time_stamp", String.class), row.get("payload_type", String.class),
                    row.get("payload_revision", String.class), payload, row.get("meta_data", byte[].class)));
            if (!current.isEmpty()) {
                payload = current.get(0).getData(byte[].class).getData();
            }
        }
        Map<?, ?> fields = JSON.readValue(payload, Map.class);
        EventFacts.SECRET_FIELDS.forEach(fields::remove);
        return fields;
    }
}
