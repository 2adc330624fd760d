package ai.convo.query.snapshot;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Snapshot reads: the list of a project's (or the organisation's) snapshots, and one snapshot. */
@RestController
class SnapshotQueryController {

    static final ListDefinition LIST = new ListDefinition("snapshots", "snapshot_view", Map.of(
            "name", Column.text("lower(name)"),
            "createdAt", Column.number("created_at"),
            "_id", Column.text("id")), "name");

    static final ListDefinition RESOURCES = new ListDefinition("resources", "snapshot_resource_view", Map.of(
            "name", Column.text("lower(name)"),
            "referenceId", Column.text("reference_id"),
            "createdAt", Column.number("created_at"),
            "_id", Column.text("id")), "name");
    static final List<String> RESOURCE_TYPES = List.of("flow", "nluconnector", "locale", "flowState",
            "largeLanguageModel");

    static final Reads.One ONE = new Reads.One("snapshot_view", "Snapshot", "snapshot", SnapshotQueryController::wire);

    private final Reads reads;

    public SnapshotQueryController(Reads reads) {
        this.reads = reads;
    }

    /** The snapshots of one project ({@code projectId}), or of the whole organisation without it. */
    @ListOf("LIST")
    @GetMapping("/v2.0/snapshots")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String projectId = QueryParams.optionalId(exchange, "projectId");
        String org = caller.organisationId();
        Scope scope = Scope.projects("snapshots", org, caller.isOrganisationAdmin() ? null : caller.userId(), projectId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("project_view", projectId, org, "Project " + projectId), SnapshotQueryController::wire);
    }

    @GetMapping("/v2.0/snapshots/{snapshotId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String snapshotId) {
        return reads.one(exchange, ApiMedia.JSON, ONE, "snapshotId", snapshotId, caller.organisationId());
    }

    /**
     * The official client's indexResourcesInSnapshot: the snapshot's resources of one {@code resourceType}, as they
     * were where it was taken. NLU connectors and large language models are not resources of this server: their
     * lists are empty.
     */
    @ListOf("RESOURCES")
    @GetMapping("/v2.0/snapshots/{snapshotId}/resources")
    public Mono<ResponseEntity<byte[]>> resources(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                  @PathVariable String snapshotId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("snapshotId", snapshotId);
        String type = exchange.getRequest().getQueryParams().getFirst("resourceType");
        if (type == null || !RESOURCE_TYPES.contains(type)) {
            throw ApiProblem.invalidParameter("resourceType", "resourceType is required: one of "
                    + String.join(", ", RESOURCE_TYPES) + (type == null ? "" : "; got '" + abbreviate(type) + "'") + ".");
        }
        ListRequest request = ListRequest.parse(exchange, RESOURCES.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND snapshot_id = :snapshot AND resource_type = :type",
                Map.of("org", org, "snapshot", snapshotId, "type", type),
                "snapshot-resources|" + org + "|" + snapshotId + "|" + type);
        return reads.page(exchange, media, RESOURCES, request, scope,
                Parent.row("snapshot_view", snapshotId, org, "Snapshot " + snapshotId), SnapshotQueryController::resource);
    }

    private static String abbreviate(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }

    static Map<String, Object> resource(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("referenceId", row.get("reference_id", String.class));
        wire.put("resourceType", row.get("resource_type", String.class));
        wire.put("name", row.get("name", String.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        wire.put("createdBy", row.get("created_by", String.class));
        return wire;
    }

    static Map<String, Object> wire(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("name", row.get("name", String.class));
        wire.put("description", row.get("description", String.class));
        wire.put("hash", row.get("hash", String.class));
        wire.put("projectReference", row.get("project_id", String.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        wire.put("createdBy", row.get("created_by", String.class));
        return wire;
    }
}
