package ai.convo.query.task;

import ai.convo.contract.task.TaskRecord;
import ai.convo.contract.task.TaskStatus;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
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
import tools.jackson.core.type.TypeReference;

/** Reads of Tasks: one by id, and the tasks of one project with the common list parameters ({@code filter} on type). */
@RestController
class TaskQueryController {

    static final ListDefinition LIST = new ListDefinition("tasks", "task_view", Map.of(
            "type", Column.text("lower(type)"),
            "status", Column.text("status"),
            "currentStep", Column.number("current_step"),
            "totalStep", Column.number("total_step"),
            "createdAt", Column.number("created_at"),
            "lastCreatedAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "lastChangedAt", Column.number("last_changed"),
            "_id", Column.text("id")), "type");

    static final Reads.One ONE = new Reads.One("task_view", "Task", "task", TaskQueryController::wire);

    private final Reads reads;

    TaskQueryController(Reads reads) {
        this.reads = reads;
    }

    /** The tasks of one project (projectId), or of the organisation (its administrators) or the caller's projects. */
    @ListOf("LIST")
    @GetMapping("/v2.0/tasks")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        String projectId = QueryParams.optionalId(exchange, "projectId");
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String org = caller.organisationId();
        Scope scope = Scope.projects("tasks", org, caller.isOrganisationAdmin() ? null : caller.userId(), projectId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("project_view", projectId, org, "Project " + projectId), TaskQueryController::wire);
    }

    @GetMapping("/v2.0/tasks/{taskId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String taskId) {
        return reads.one(exchange, ApiMedia.JSON, ONE, "taskId", taskId, caller.organisationId());
    }

    static Map<String, Object> wire(Readable row) {
        return new TaskRecord(row.get("id", String.class), TaskStatus.valueOf(row.get("status", String.class)),
                row.get("type", String.class), parameters(row.get("parameters", String.class)),
                row.get("current_step", Long.class).intValue(), row.get("total_step", Long.class).intValue(),
                row.get("fail_reason", String.class), row.get("created_at", Long.class),
                row.get("last_changed", Long.class), row.get("created_by", String.class),
                row.get("last_changed_by", String.class)).toWire();
    }

    private static Map<String, Object> parameters(String json) {
        return Renderer.JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
    }
}
