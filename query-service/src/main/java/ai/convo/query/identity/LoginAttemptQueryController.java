package ai.convo.query.identity;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's indexLoginAttemptsMe and readLastLoginAttemptMe: the caller's own password sign-ins (failed
 * ones all, successful ones when they ended failures or at most every 15 minutes), {@code location} being the
 * client's address. Sign-ins with an API key or a token are not sign-ins here.
 */
@RestController
class LoginAttemptQueryController {

    static final ListDefinition LIST = new ListDefinition("loginattempts", "login_attempt_view", Map.of(
            "timestamp", Column.number("occurred_at"),
            "createdAt", Column.number("occurred_at"),
            "status", Column.text("status")), "status");

    private final Reads reads;
    private final DatabaseClient db;

    public LoginAttemptQueryController(Reads reads, @ReadModel DatabaseClient db) {
        this.reads = reads;
        this.db = db;
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/users/me/loginattempts")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        Scope scope = new Scope("user_id = :user", Map.of("user", caller.userId()), "loginattempts|" + caller.userId());
        return reads.page(exchange, media, LIST, request, scope, null, LoginAttemptQueryController::wire);
    }

    @GetMapping("/v2.0/users/me/lastloginattempt")
    public Mono<ResponseEntity<byte[]>> last(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ai.convo.query.web.AsOf.refuse(exchange, "the last sign-in is not kept by moment; every sign-in, with its "
                + "timestamp, is in GET /v2.0/users/me/loginattempts.");
        return db.sql("SELECT * FROM login_attempt_view WHERE user_id = :user ORDER BY occurred_at DESC, id DESC LIMIT 1")
                .bind("user", caller.userId())
                .map(LoginAttemptQueryController::wire).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("No password sign-in of yours is recorded "
                        + "(sign-ins with an API key or a token are not recorded).")))
                .map(attempt -> ApiResponses.ok(exchange, media, new Representation.Single("loginAttempt", attempt)));
    }

    static Map<String, Object> wire(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("status", row.get("status", String.class));
        wire.put("timestamp", row.get("occurred_at", Long.class));
        wire.put("location", row.get("location", String.class));
        return wire;
    }
}
