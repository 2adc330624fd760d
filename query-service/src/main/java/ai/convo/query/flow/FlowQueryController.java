package ai.convo.query.flow;

import ai.convo.contract.flow.FlowRecord;
import ai.convo.contract.settings.Settings;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.query.intent.IntentTrainingLookup;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.AsOf;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import ai.convo.query.settings.SettingsRows;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Reads of flows (the official client's indexFlows and readFlow). */
@RestController
class FlowQueryController {

    static final ListDefinition LIST = new ListDefinition("flows", "flow_view", Map.of(
            "name", Column.text("lower(name)"),
            "description", Column.text("lower(description)"),
            "referenceId", Column.text("reference_id"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    static final Reads.One ONE = new Reads.One("flow_view", "Flow", "flow", FlowQueryController::wire);
    static final Reads.One SETTINGS = new Reads.One("flow_view", "Flow", "settings", SettingsRows.wire(Settings.FLOW, true));

    private final Reads reads;
    private final IntentTrainingLookup training;
    private final DatabaseClient db;

    public FlowQueryController(Reads reads, IntentTrainingLookup training, @ReadModel DatabaseClient db) {
        this.reads = reads;
        this.training = training;
        this.db = db;
    }

    /** The flows of one project ({@code projectId}), or of the whole organisation without it. */
    @ListOf("LIST")
    @GetMapping("/v2.0/flows")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String projectId = QueryParams.optionalId(exchange, "projectId");
        String org = caller.organisationId();
        Scope scope = Scope.projects("flows", org, caller.isOrganisationAdmin() ? null : caller.userId(), projectId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("project_view", projectId, org, "Project " + projectId), FlowQueryController::wire);
    }

    /**
     * The flow, with its training in one locale (preferredLocaleId, or the project's primary locale):
     * {@code feedbackReport} and {@code isTrainingOutOfDate} ({@link IntentTrainingLookup}). A read of the past
     * (asOf) shows the flow's own fields only: the training fields describe the current model.
     */
    @GetMapping("/v2.0/flows/{flowId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String flowId) {
        if (AsOf.parse(exchange) != null) {
            return reads.one(exchange, ApiMedia.JSON, ONE, "flowId", flowId, caller.organisationId());
        }
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("flowId", flowId);
        String preferred = QueryParams.optionalId(exchange, "preferredLocaleId");
        return reads.row(exchange, "flow_view", flowId, caller.organisationId(), Map.of(), row -> Map.entry(wire(row),
                        preferred != null ? preferred : row.get("project_id", String.class)))
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Flow " + flowId + " does not exist.")))
                .flatMap(found -> (preferred != null ? Mono.just(preferred) : primaryLocale(found.getValue()))
                        .flatMap(locale -> training.of(flowId, locale))
                        .map(trainingFields -> {
                            Map<String, Object> flow = found.getKey();
                            flow.putAll(trainingFields);
                            return ApiResponses.ok(exchange, media, new Representation.Single("flow", flow));
                        }));
    }

    private Mono<String> primaryLocale(String projectId) {
        return db.sql("SELECT primary_locale_reference FROM project_view WHERE id = :project").bind("project", projectId)
                .map(row -> row.get("primary_locale_reference", String.class)).one().defaultIfEmpty("");
    }

    /** The official client's readFlowSettings: every setting, the ones a client set over the defaults. */
    @GetMapping("/v2.0/flows/{flowId}/settings")
    public Mono<ResponseEntity<byte[]>> settings(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                 @PathVariable String flowId) {
        return reads.one(exchange, ApiMedia.JSON, SETTINGS, "flowId", flowId, caller.organisationId());
    }

    static Map<String, Object> wire(Readable row) {
        return new FlowRecord(row.get("id", String.class), row.get("name", String.class),
                row.get("description", String.class), row.get("reference_id", String.class),
                row.get("project_id", String.class), row.get("created_at", Long.class),
                row.get("last_changed", Long.class), row.get("created_by", String.class),
                row.get("last_changed_by", String.class)).toWire();
    }
}
