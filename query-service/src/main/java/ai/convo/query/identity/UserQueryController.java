package ai.convo.query.identity;

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

/**
 * The users of the caller's organisation (indexUsers, readUser, readUserMe), from the identity store the command
 * service writes with its events: never a password or its hash. A deleted user, or one of another organisation, is a
 * 404 in the same words as one that never was.
 */
@RestController
class UserQueryController {

    static final ListDefinition LIST = new ListDefinition("users", "identity_user", Map.of(
            "email", Column.text("email"),
            "name", Column.text("lower(name)"),
            "createdAt", Column.number("created_at"),
            "_id", Column.text("id")), "email");

    private static final String COLUMNS = "id, organisation_id, email, name, role, roles, disabled, created_at";

    private final Reads reads;
    private final DatabaseClient db;

    /** Users are written outside the projections (no token to wait for): read on the primary. */
    public UserQueryController(DatabaseClient db, ai.convo.query.consistency.ReadYourWrites consistency) {
        this.reads = new Reads(db, new KeysetLists(db), consistency);
        this.db = db;
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/users")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        Scope scope = new Scope("organisation_id = :organisation AND deleted_at IS NULL",
                Map.of("organisation", caller.organisationId()), "users|" + caller.organisationId());
        return reads.page(exchange, media, LIST, request, scope, null, UserQueryController::item);
    }

    @GetMapping("/v2.0/users/me")
    public Mono<ResponseEntity<byte[]>> readMe(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        return read(exchange, caller, caller.userId());
    }

    @GetMapping("/v2.0/users/{userId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String userId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("userId", userId);
        AsOf.refuse(exchange, "Users keep no version history. The user's events are in "
                + "GET /v2.0/eventlog?resourceType=user&resourceId=" + userId + ".");
        return db.sql("SELECT " + COLUMNS + " FROM identity_user WHERE id = :id AND organisation_id = :organisation "
                        + "AND deleted_at IS NULL")
                .bind("id", userId).bind("organisation", caller.organisationId())
                .map(UserQueryController::item).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("User " + userId + " does not exist.")))
                .map(user -> ApiResponses.ok(exchange, media, new Representation.Single("user", user)));
    }

    static Map<String, Object> item(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("name", row.get("name", String.class));
        wire.put("email", row.get("email", String.class));
        wire.put("roles", roles(row));
        wire.put("disabled", row.get("disabled", Boolean.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        return wire;
    }

    /** The organisation-wide roles in effect: an organisation's first administrator holds admin. */
    static List<String> roles(Readable row) {
        String[] held = row.get("roles", String[].class);
        List<String> roles = new java.util.ArrayList<>(held == null ? List.of() : Arrays.asList(held));
        String role = row.get("role", String.class);
        if (("ORG_ADMIN".equals(role) || "SYSTEM_ADMIN".equals(role)) && !roles.contains("admin")) {
            roles.add(0, "admin");
        }
        return roles;
    }
}
