package ai.convo.query.slotfiller;

import ai.convo.contract.slotfiller.SlotFillerRecord;
import ai.convo.contract.slotfiller.SlotFillerSettings;
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
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's indexSlotFillers (a flow's slot fillers, items {@code {_id, name, type, referenceId}} and
 * meta, with the full list mechanics) and readSlotFiller (the full object, with {@code asOf}). A slot filler answers
 * only under its own flow.
 */
@RestController
class SlotFillerQueryController {

    static final ListDefinition LIST = new ListDefinition("slotfillers", "slot_filler_view", Map.of(
            "name", Column.text("lower(name)"),
            "type", Column.text("type"),
            "referenceId", Column.text("reference_id"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    private final Reads reads;

    SlotFillerQueryController(Reads reads) {
        this.reads = reads;
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/flows/{flowId}/slotfillers")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND flow_id = :flow", Map.of("org", org, "flow", flowId),
                "slotfillers|" + org + "|" + flowId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("flow_view", flowId, org, "Flow " + flowId),
                SlotFillerQueryController::item);
    }

    @GetMapping("/v2.0/flows/{flowId}/slotfillers/{slotFillerId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId, @PathVariable String slotFillerId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        QueryParams.pathId("slotFillerId", slotFillerId);
        return reads.row(exchange, "slot_filler_view", slotFillerId, caller.organisationId(),
                        Map.of("flow_id", flowId), SlotFillerQueryController::full)
                // word for word the write side's answer, so a slot filler of another flow or organisation tells nothing
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Slot filler " + slotFillerId + " does not exist.")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("slotFiller", record)));
    }

    /** An item of the client's index: {@code _id, name, type, referenceId} and the meta. */
    static Map<String, Object> item(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("name", row.get("name", String.class));
        wire.put("type", row.get("type", String.class));
        wire.put("referenceId", row.get("reference_id", String.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        wire.put("lastChanged", row.get("last_changed", Long.class));
        wire.put("createdBy", row.get("created_by", String.class));
        wire.put("lastChangedBy", row.get("last_changed_by", String.class));
        return wire;
    }

    static Map<String, Object> full(Readable row) {
        return new SlotFillerRecord(row.get("id", String.class), row.get("reference_id", String.class),
                new SlotFillerSettings(row.get("name", String.class), row.get("type", String.class),
                        row.get("regex", String.class), row.get("slot", String.class),
                        flag(row, "use_positive_only"), flag(row, "remove_negated"),
                        flag(row, "store_result_in_context"), row.get("context_key", String.class),
                        flag(row, "store_in_contact_profile"), row.get("profile_key", String.class),
                        flag(row, "store_detailed_results"), flag(row, "skip_if_result_in_context"),
                        row.get("additional_validation", String.class), row.get("result_location", String.class)),
                row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class)).toWire();
    }

    private static boolean flag(Readable row, String column) {
        return Boolean.TRUE.equals(row.get(column, Boolean.class));
    }
}
