package ai.convo.query.member;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.AsOf;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.KeysetLists;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** A project's members as the client reads them (indexProjectMembers, readProjectMember). */
@RestController
class MemberQueryController {

    static final ListDefinition LIST = new ListDefinition("members", "identity_project_member", Map.of(
            "id", Column.text("email"),
            "name", Column.text("lower(name)"),
            "createdAt", Column.number("created_at"),
            "_id", Column.text("id")), "email");

    private final Reads reads;
    private final DatabaseClient db;

    /** Memberships are written outside the projections (no token to wait for): read on the primary. */
    public MemberQueryController(DatabaseClient db, ai.convo.query.consistency.ReadYourWrites consistency) {
        this.reads = new Reads(db, new KeysetLists(db), consistency);
        this.db = db;
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/projects/{projectId}/members")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String projectId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("projectId", projectId);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND project_id = :project",
                Map.of("org", org, "project", projectId), "members|" + projectId);
        return reads.page(exchange, media, LIST, request, scope,
                Parent.row("project_view", projectId, org, "Project " + projectId), MemberQueryController::item);
    }

    @GetMapping("/v2.0/projects/{projectId}/members/{userId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String projectId, @PathVariable String userId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("projectId", projectId);
        QueryParams.pathId("userId", userId);
        AsOf.refuse(exchange, "Memberships keep no version history. Their events are in "
                + "GET /v2.0/eventlog?resourceType=projectMember&resourceId=" + userId + ".");
        return db.sql("SELECT * FROM identity_project_member WHERE project_id = :project AND id = :user "
                        + "AND organisation_id = :org")
                .bind("project", projectId).bind("user", userId).bind("org", caller.organisationId())
                .map(MemberQueryController::detail).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("User " + userId + " is not a member of project "
                        + projectId + ".")))
                .map(member -> ApiResponses.ok(exchange, media, new Representation.Single("member", member)));
    }

    static Map<String, Object> item(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        // the client's member "id" is the e-mail address
        wire.put("id", row.get("email", String.class));
        wire.put("name", row.get("name", String.class));
        String[] roles = row.get("roles", String[].class);
        wire.put("roles", roles == null ? List.of() : Arrays.asList(roles));
        wire.put("createdAt", row.get("created_at", Long.class));
        wire.put("createdBy", row.get("created_by", String.class));
        return wire;
    }

    static Map<String, Object> detail(Readable row) {
        Map<String, Object> wire = item(row);
        wire.put("acceptedTOS", true);
        wire.put("disabled", row.get("disabled", Boolean.class));
        wire.put("acl", List.of());
        String[] locales = row.get("allowed_locales", String[].class);
        wire.put("allowedLocales", locales == null ? null
                : Arrays.stream(locales).map(id -> Map.of("localeId", id)).toList());
        return wire;
    }
}
