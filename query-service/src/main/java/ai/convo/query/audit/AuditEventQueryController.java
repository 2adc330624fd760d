package ai.convo.query.audit;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.eventlog.LogAccess;
import ai.convo.query.eventlog.LogQuery;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official client's indexAuditEvents and readAuditEvent: the organisation's audit events (one per accepted
 * command, derived from the event log, and the refused requests) in the IAuditEvent_2_0 shape.
 */
@RestController
class AuditEventQueryController {

    static final List<String> TYPES = List.of("action", "create", "replace", "patch", "delete", "unauthorized");
    static final ListDefinition LIST = new ListDefinition("auditevents", "audit_event_view", Map.of(
            "createdAt", Column.number("occurred_at"),
            "timestamp", Column.number("occurred_at"),
            "type", Column.text("type"),
            "user", Column.text("coalesce(user_email, '')"),
            "_id", Column.text("id")), "coalesce(user_email, '')");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Reads reads;
    private final Function<Readable, Map<String, Object>> wire;

    public AuditEventQueryController(Reads reads, @Value("${app.audit.retention:0s}") Duration retention) {
        this.reads = reads;
        this.wire = row -> wire(row, retention);
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/auditevents")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        String org = LogAccess.organisation(exchange, caller);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        StringBuilder where = new StringBuilder("organisation_id = :org");
        Map<String, Object> binds = new HashMap<>(Map.of("org", org));
        StringBuilder key = new StringBuilder("auditevents|" + org);
        String type = params.getFirst("type");
        if (type != null && !type.isEmpty()) {
            if (!TYPES.contains(type)) {
                throw ApiProblem.invalidParameter("type", "type must be one of " + TYPES + "; got '"
                        + LogQuery.clip(type) + "'.");
            }
            condition(where, binds, key, "type = :type", "type", type);
        }
        String projectId = QueryParams.optionalId(exchange, "projectId");
        if (projectId != null) {
            condition(where, binds, key, "project_id = :project", "project", projectId);
        }
        String userId = QueryParams.optionalId(exchange, "userId");
        if (userId != null) {
            condition(where, binds, key, "user_id = :user", "user", userId);
        }
        String email = params.getFirst("user");
        if (email != null && !email.isEmpty()) {
            if (email.length() > 320) {
                throw ApiProblem.invalidParameter("user", "user must be an e-mail address (at most 320 characters).");
            }
            condition(where, binds, key, "lower(user_email) = lower(:email)", "email", email);
        }
        String resourceType = params.getFirst("resourceType");
        if (resourceType != null && !resourceType.isEmpty()) {
            if (!LogQuery.RESOURCE_TYPES.contains(resourceType)) {
                throw ApiProblem.invalidParameter("resourceType", "resourceType must be one of "
                        + LogQuery.RESOURCE_TYPES.stream().sorted().toList() + "; got '" + LogQuery.clip(resourceType)
                        + "'.");
            }
            condition(where, binds, key, "resource_type = :resourceType", "resourceType", resourceType);
        }
        String resourceId = QueryParams.optionalId(exchange, "resourceId");
        if (resourceId != null) {
            condition(where, binds, key, "(resource_id = :resourceId OR chain @> jsonb_build_array("
                    + "jsonb_build_object('elementId', :resourceId)))", "resourceId", resourceId);
        }
        Long since = time(params.getFirst("since"), "since");
        Long until = time(params.getFirst("until"), "until");
        if (since != null && until != null && until < since) {
            throw ApiProblem.invalidParameter("until", "until must not be before since.");
        }
        if (since != null) {
            condition(where, binds, key, "occurred_at >= :since", "since", since);
        }
        if (until != null) {
            condition(where, binds, key, "occurred_at < :until", "until", until);
        }
        Scope scope = new Scope(where.toString(), binds, key.toString());
        return reads.page(exchange, media, LIST, request, scope, null, wire);
    }

    @GetMapping("/v2.0/auditevents/{auditEventId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String auditEventId) {
        String org = LogAccess.organisation(exchange, caller);
        return reads.one(exchange, ApiMedia.JSON, new Reads.One("audit_event_view", "Audit event", "auditEvent", wire),
                "auditEventId", auditEventId, org);
    }

    private static void condition(StringBuilder where, Map<String, Object> binds, StringBuilder key, String sql,
                                  String name, Object value) {
        where.append(" AND ").append(sql);
        binds.put(name, value);
        key.append('|').append(name).append('=').append(value);
    }

    private static Long time(String value, String name) {
        return value == null || value.isEmpty() ? null : LogQuery.instant(name, value);
    }

    /** IAuditEvent_2_0: timestamps as ISO-8601 text; expiresAt null while retention is unlimited. */
    static Map<String, Object> wire(Readable row, Duration retention) {
        long at = row.get("occurred_at", Long.class);
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("timestamp", Instant.ofEpochMilli(at).toString());
        wire.put("type", row.get("type", String.class));
        String actionType = row.get("action_type", String.class);
        if (actionType != null) {
            wire.put("actionType", actionType);
        }
        wire.put("user", row.get("user_email", String.class));
        wire.put("userReference", row.get("user_id", String.class));
        wire.put("organisationReference", row.get("organisation_id", String.class));
        wire.put("projectReference", row.get("project_id", String.class));
        wire.put("chain", JSON.readValue(row.get("chain", Json.class).asString(), List.class));
        wire.put("payload", JSON.readValue(row.get("payload", Json.class).asString(), Map.class));
        wire.put("expiresAt", retention.isZero() ? null : Instant.ofEpochMilli(at).plus(retention).toString());
        return wire;
    }
}
