package ai.convo.query.identity;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The caller's active API keys, never with their secret (the server does not have it). */
@RestController
public class ApiKeyQueryController {

    static final ListDefinition LIST = new ListDefinition("apikeys", "identity_api_key", Map.of(
            "label", Column.text("lower(label)"),
            "createdAt", Column.number("created_at"),
            "_id", Column.text("id")), "label");

    private final Reads reads;

    public ApiKeyQueryController(Reads reads) {
        this.reads = reads;
    }

    @GetMapping("/v2.0/users/me/apikeys")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        Scope scope = new Scope("user_id = :user AND revoked_at IS NULL", Map.of("user", caller.userId()),
                "apikeys|" + caller.userId());
        return reads.page(exchange, media, LIST, request, scope, Mono.just(true), "", ApiKeyQueryController::wire);
    }

    static Map<String, Object> wire(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("label", row.get("label", String.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        return wire;
    }
}
