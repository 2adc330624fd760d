package ai.convo.query.identity;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.query.web.AsOf;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.KeysetLists;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The caller's active API keys, never with their secret (the server does not have it). */
@RestController
class ApiKeyQueryController {

    static final ListDefinition LIST = new ListDefinition("apikeys", "identity_api_key", Map.of(
            "label", Column.text("lower(label)"),
            "createdAt", Column.number("created_at"),
            "_id", Column.text("id")), "label");

    private final Reads reads;
    private final DatabaseClient db;

    /** API keys are written outside the event log (no projection, no token to wait for): read on the primary. */
    public ApiKeyQueryController(DatabaseClient db, ai.convo.query.consistency.ReadYourWrites consistency) {
        this.reads = new Reads(db, new KeysetLists(db), consistency);
        this.db = db;
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/users/me/apikeys")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        Scope scope = new Scope("user_id = :user AND revoked_at IS NULL", Map.of("user", caller.userId()),
                "apikeys|" + caller.userId());
        return reads.page(exchange, media, LIST, request, scope, null, ApiKeyQueryController::wire);
    }

    /** One of the caller's own active keys; anyone else's, or a revoked one, is a 404. */
    @GetMapping("/v2.0/users/me/apikeys/{apiKeyId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String apiKeyId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("apiKeyId", apiKeyId);
        // keys are stored outside the projections, with no version history for asOf to read
        AsOf.refuse(exchange, "API keys keep no history. The key's events (ApiKeyIssued, ApiKeyRevoked) are in "
                + "GET /v2.0/eventlog?resourceType=apiKey&resourceId=" + apiKeyId + ".");
        return db.sql("SELECT * FROM identity_api_key WHERE id = :id AND user_id = :user AND revoked_at IS NULL")
                .bind("id", apiKeyId).bind("user", caller.userId())
                .map(ApiKeyQueryController::wire).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("You hold no active API key with id " + apiKeyId + ".")))
                .map(key -> ApiResponses.ok(exchange, media, new Representation.Single("apiKey", key)));
    }

    static Map<String, Object> wire(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        // "name" for the official client (IApiKeyIndexItem_2_0); "label", this server's older name, stays.
        wire.put("name", row.get("label", String.class));
        wire.put("label", row.get("label", String.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        return wire;
    }
}
