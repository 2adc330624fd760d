package ai.convo.command.snapshot;

import ai.convo.command.web.DecidingAgain;
import ai.convo.command.task.TaskSubmitter;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.Ids;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.snapshot.RequestSnapshotCommand;
import ai.convo.contract.snapshot.RequestSnapshotDeletionCommand;
import ai.convo.contract.snapshot.RequestSnapshotRestoreCommand;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotLimits;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Snapshot writes, each a Task: create, delete, restore. Each sends the registry's command (which decides: the
 * limit, visibility, state) and submits the task in ONE transaction, so a refused command creates no task and a
 * task never exists without its command's event. Answers 202 with the Task record and its {@code Location}.
 */
@RestController
public class SnapshotController {

    private static final Set<String> CREATE_FIELDS = Set.of("projectId", "name", "description");
    private static final Set<String> RESTORE_FIELDS = Set.of("projectId");

    private final Commands commands;
    private final CommandGateway gateway;
    private final SnapshotLookup snapshots;
    private final ObjectProvider<TaskSubmitter> submitter;
    private final TransactionTemplate transaction;

    public SnapshotController(Commands commands, CommandGateway gateway, SnapshotLookup snapshots,
                              ObjectProvider<TaskSubmitter> submitter, PlatformTransactionManager transactions) {
        this.commands = commands;
        this.gateway = gateway;
        this.snapshots = snapshots;
        this.submitter = submitter;
        this.transaction = new TransactionTemplate(transactions);
    }

    @PostMapping("/v2.0/snapshots")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String projectId = body.requiredId("projectId");
        String name = body.requiredString("name", 1, SnapshotLimits.MAX_NAME_LENGTH);
        String description = body.optionalString("description", 0, SnapshotLimits.MAX_DESCRIPTION_LENGTH);
        body.validate();
        Actor actor = caller.actor();
        SnapshotId snapshotId = SnapshotId.generate();
        TaskId taskId = TaskId.generate();
        Map<String, Object> parameters = parameters("snapshotId", snapshotId.value(), "projectId", projectId,
                "name", name, "description", description == null ? "" : description);
        return submit(exchange, media, ProjectId.of(projectId), taskId, CreateSnapshotWork.TYPE, parameters, actor,
                () -> new RequestSnapshotCommand(SnapshotRegistryId.of(projectId), snapshotId, taskId, name,
                        description, actor, Clock.nowSeconds()));
    }

    @DeleteMapping("/v2.0/snapshots/{snapshotId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String snapshotId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("snapshotId", snapshotId);
        Actor actor = caller.actor();
        TaskId taskId = TaskId.generate();
        return commands.blocking(() -> snapshots.requireVisible(snapshotId, actor))
                .flatMap(found -> submit(exchange, media, ProjectId.of(found.projectId()), taskId,
                        DeleteSnapshotWork.TYPE, parameters("snapshotId", snapshotId), actor,
                        () -> new RequestSnapshotDeletionCommand(SnapshotRegistryId.of(found.projectId()),
                                SnapshotId.of(snapshotId), taskId, actor, Clock.nowSeconds())));
    }

    @PostMapping("/v2.0/snapshots/{snapshotId}/restore")
    public Mono<ResponseEntity<byte[]>> restore(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @PathVariable String snapshotId,
                                                @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("snapshotId", snapshotId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(RESTORE_FIELDS);
        String projectId = body.requiredId("projectId");
        body.validate();
        Actor actor = caller.actor();
        TaskId taskId = TaskId.generate();
        return commands.blocking(() -> snapshots.requireVisible(snapshotId, actor))
                .flatMap(found -> submit(exchange, media, ProjectId.of(projectId), taskId, RestoreSnapshotWork.TYPE,
                        parameters("snapshotId", snapshotId, "projectId", projectId), actor,
                        () -> new RequestSnapshotRestoreCommand(SnapshotRegistryId.of(found.projectId()),
                                SnapshotId.of(snapshotId), ProjectId.of(projectId), taskId, actor,
                                Clock.nowSeconds())));
    }

    private Mono<ResponseEntity<byte[]>> submit(ServerWebExchange exchange, ApiMedia media, ProjectId projectId,
                                                TaskId taskId, String type, Map<String, Object> parameters,
                                                Actor actor, Supplier<Object> command) {
        TaskSubmitter tasks = submitter.getIfAvailable();
        if (tasks == null) {
            return Mono.error(new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "Tasks cannot be run by this service "
                    + "at the moment; retry later.", Map.of()));
        }
        return commands.blocking(() -> DecidingAgain.run(() -> transaction.execute(status -> {
                    gateway.sendAndWait(command.get());
                    return tasks.submit(taskId, type, projectId, parameters, actor);
                })))
                .map(submitted -> ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                        new Representation.Single("task", submitted.record()),
                        taskLocation(exchange, submitted.taskId()), submitted.eventPosition()));
    }

    /** {base path}/v2.0/tasks/{id}: the request path up to its version segment, which carries the base path. */
    private static String taskLocation(ServerWebExchange exchange, TaskId taskId) {
        String path = exchange.getRequest().getPath().value();
        return path.substring(0, path.indexOf("/v2.0/")) + "/v2.0/tasks/" + taskId.value();
    }

    private static Map<String, Object> parameters(String... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
