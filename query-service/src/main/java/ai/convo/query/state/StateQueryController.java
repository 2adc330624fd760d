package ai.convo.query.state;

import ai.convo.contract.state.StateRecord;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Reads of the (deprecated) states of a flow: the specification's state list and one state. The deprecation
 * headers come from the shared DeprecationHeaders filter.
 */
@RestController
class StateQueryController {

    static final ListDefinition LIST = new ListDefinition("states", "state_view", Map.of(
            "name", Column.text("lower(name)"),
            "referenceId", Column.text("reference_id"),
            "isDefault", Column.bool("is_default"),
            "type", Column.text("type"),
            "intentIds", Column.text("array_to_string(intent_ids, ',')"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "createdBy", Column.text("created_by"),
            "lastChangedBy", Column.text("last_changed_by"),
            "_id", Column.text("id")), "name");

    private final Reads reads;

    public StateQueryController(Reads reads) {
        this.reads = reads;
    }

    /** GET /v2.0/flows/{flowId}/states: the common list parameters, 25 per page by default. */
    @ListOf("LIST")
    @GetMapping("/v2.0/flows/{flowId}/states")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND flow_id = :flow", Map.of("org", org, "flow", flowId),
                "states|" + org + "|" + flowId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("flow_view", flowId, org, "Flow " + flowId), StateQueryController::wire);
    }

    /** One state; a state of another flow (or another organisation) is a 404 like a missing one. */
    @GetMapping("/v2.0/flows/{flowId}/states/{stateId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId, @PathVariable String stateId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        QueryParams.pathId("stateId", stateId);
        return reads.row(exchange, "state_view", stateId, caller.organisationId(), Map.of("flow_id", flowId),
                        StateQueryController::wire)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("State " + stateId + " does not exist in flow "
                        + flowId + ".")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("state", record)));
    }

    static Map<String, Object> wire(Readable row) {
        String[] intentIds = row.get("intent_ids", String[].class);
        List<String> ids = intentIds == null ? List.of() : Arrays.asList(intentIds);
        return new StateRecord(row.get("id", String.class), row.get("name", String.class),
                row.get("reference_id", String.class), Boolean.TRUE.equals(row.get("is_default", Boolean.class)),
                row.get("type", String.class), ids, row.get("created_at", Long.class),
                row.get("last_changed", Long.class), row.get("created_by", String.class),
                row.get("last_changed_by", String.class)).toWire();
    }
}
