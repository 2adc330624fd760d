package ai.convo.query.function;

import ai.convo.contract.function.FunctionInstanceRecord;
import ai.convo.contract.function.FunctionInstanceStatus;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
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
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;

/** The client's indexFunctionInstances and readFunctionInstance. */
@RestController
public class FunctionInstanceQueryController {

    static final ListDefinition LIST = new ListDefinition("functionInstances", "function_instance_view", Map.of(
            "createdAt", Column.number("created_at"),
            "finishedAt", Column.number("finished_at"),
            "status", Column.text("status"),
            "trigger", Column.text("trigger"),
            "_id", Column.text("id")), "createdAt");

    private final Reads reads;

    public FunctionInstanceQueryController(Reads reads) {
        this.reads = reads;
    }

    /** The instances of one function (HAL+JSON unless asked otherwise); {@code projectId} may narrow them, as the client sends it. */
    @ListOf("LIST")
    @GetMapping("/v2.0/functions/{functionId}/instances")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String functionId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.HAL);
        QueryParams.pathId("functionId", functionId);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String projectId = QueryParams.optionalId(exchange, "projectId");
        String org = caller.organisationId();
        Scope scope = projectId == null
                ? new Scope("organisation_id = :org AND function_id = :function", Map.of("org", org, "function", functionId),
                        "functionInstances|" + org + "|" + functionId)
                : new Scope("organisation_id = :org AND function_id = :function AND project_id = :project",
                        Map.of("org", org, "function", functionId, "project", projectId),
                        "functionInstances|" + org + "|" + functionId + "|" + projectId);
        return reads.page(exchange, media, LIST, request, scope,
                Parent.row("function_view", functionId, org, "Function " + functionId),
                row -> record(row).toListWire());
    }

    /** One instance, under its function: an instance of another function (or organisation) answers 404. */
    @GetMapping("/v2.0/functions/{functionId}/instances/{instanceId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String functionId, @PathVariable String instanceId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("functionId", functionId);
        QueryParams.pathId("instanceId", instanceId);
        return reads.row(exchange, "function_instance_view", instanceId, caller.organisationId(),
                        Map.of("function_id", functionId), row -> record(row).toWire())
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Function instance " + instanceId
                        + " does not exist.")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("functionInstance", record)));
    }

    static FunctionInstanceRecord record(Readable row) {
        return new FunctionInstanceRecord(row.get("id", String.class), row.get("function_id", String.class),
                row.get("trigger", String.class), FunctionInstanceStatus.valueOf(row.get("status", String.class)),
                row.get("error", String.class), json(row.get("parameters", String.class),
                new TypeReference<Map<String, Object>>() { }),
                json(row.get("logs", String.class), new TypeReference<List<String>>() { }),
                row.get("created_at", Long.class), row.get("finished_at", Long.class));
    }

    private static <T> T json(String text, TypeReference<T> type) {
        return text == null ? null : Renderer.JSON.readValue(text, type);
    }
}
