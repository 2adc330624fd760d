package ai.convo.query.token;

import ai.convo.contract.token.TokenRecord;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
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
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Reads of Tokens, which the API calls snippets. The list shows custom tokens only; default ones are read by id. */
@RestController
class TokenQueryController {

    static final ListDefinition LIST = new ListDefinition("tokens", "token_view", Map.of(
            "label", Column.text("lower(label)"),
            "type", Column.text("token_type"),
            "script", Column.text("script"),
            "referenceId", Column.text("reference_id"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "createdBy", Column.text("created_by"),
            "lastChangedBy", Column.text("last_changed_by"),
            "_id", Column.text("id")), "label");

    private final Reads reads;

    public TokenQueryController(Reads reads) {
        this.reads = reads;
    }

    /** The specification's token list: the custom tokens of one project of the caller's organisation. */
    @ListOf("LIST")
    @GetMapping("/v2.0/projects/{projectId}/snippets")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String projectId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("projectId", projectId);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND project_id = :project AND NOT is_default",
                Map.of("org", org, "project", projectId), "tokens|" + org + "|" + projectId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("project_view", projectId, org, "Project " + projectId), TokenQueryController::wire);
    }

    /** One token of the project, default tokens included. */
    @GetMapping("/v2.0/projects/{projectId}/snippets/{snippetId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String projectId, @PathVariable String snippetId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("projectId", projectId);
        QueryParams.pathId("snippetId", snippetId);
        return reads.row(exchange, "token_view", snippetId, caller.organisationId(), Map.of("project_id", projectId),
                        TokenQueryController::wire)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Token " + snippetId + " does not exist in project "
                        + projectId + ".")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("token", record)));
    }

    static Map<String, Object> wire(Readable row) {
        return new TokenRecord(row.get("id", String.class), row.get("label", String.class),
                row.get("token_type", String.class), row.get("script", String.class),
                row.get("reference_id", String.class), row.get("created_at", Long.class),
                row.get("last_changed", Long.class), row.get("created_by", String.class),
                row.get("last_changed_by", String.class)).toWire();
    }
}
