package ai.convo.command.snapshot;

import ai.convo.command.task.TaskRequests;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.command.web.UploadForm;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
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
import ai.convo.http.openapi.BodyMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
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
class SnapshotController {

    private static final Set<String> CREATE_FIELDS = Set.of("projectId", "name", "description");
    private static final Set<String> RESTORE_FIELDS = Set.of("projectId");
    // the client's upload sends fileName too when the caller gives one
    private static final Map<String, String> UPLOAD_FIELDS = Map.of(
            "projectId", "the project the package becomes a snapshot of", "file", "the package, as downloaded");

    private final Commands commands;
    private final SnapshotLookup snapshots;
    private final TaskRequests tasks;

    private final SnapshotPackages packages;
    private final JdbcTemplate jdbc;

    public SnapshotController(Commands commands, SnapshotLookup snapshots, TaskRequests tasks,
                              SnapshotPackages packages, JdbcTemplate jdbc) {
        this.packages = packages;
        this.jdbc = jdbc;
        this.commands = commands;
        this.snapshots = snapshots;
        this.tasks = tasks;
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

    /** The official client's packageSnapshot: a Task that builds the snapshot's package for download links. */
    @PostMapping("/v2.0/snapshots/{snapshotId}/package")
    public Mono<ResponseEntity<byte[]>> packageSnapshot(ServerWebExchange exchange,
                                                        @AuthenticationPrincipal ApiPrincipal caller,
                                                        @PathVariable String snapshotId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("snapshotId", snapshotId);
        Actor actor = caller.actor();
        return commands.blocking(() -> snapshots.requireVisible(snapshotId, actor))
                .flatMap(found -> submit(exchange, media, ProjectId.of(found.projectId()), TaskId.generate(),
                        PackageSnapshotWork.TYPE, parameters("snapshotId", snapshotId), actor, null));
    }

    /**
     * The official client's composeSnapshotDownloadLink: a link to the snapshot's package that works for the caller
     * only (with the caller's own credentials), for one day. The snapshot must be packaged first (409 otherwise).
     */
    @PostMapping("/v2.0/snapshots/{snapshotId}/downloadlink")
    public Mono<ResponseEntity<byte[]>> downloadLink(ServerWebExchange exchange,
                                                     @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String snapshotId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("snapshotId", snapshotId);
        Actor actor = caller.actor();
        return commands.blocking(() -> {
            snapshots.requireVisible(snapshotId, actor);
            if (jdbc.queryForList("SELECT 1 FROM cmd_snapshot_package WHERE snapshot_id = ?", Integer.class,
                    snapshotId).isEmpty()) {
                throw DomainException.conflict("Snapshot " + snapshotId + " is not packaged yet: run packageSnapshot "
                        + "(POST .../package) and wait for its task first.");
            }
            return packages.linkToken(snapshotId, caller.userId(), Clock.nowSeconds());
        }).map(token -> {
            java.net.URI uri = exchange.getRequest().getURI();
            String path = exchange.getRequest().getPath().value();
            String link = uri.getScheme() + "://" + uri.getRawAuthority() + path.substring(0, path.indexOf("/v2.0/"))
                    + "/v2.0/snapshots/" + snapshotId + "/download?token=" + token;
            return ApiResponses.ok(exchange, media, new Representation.Single("downloadLink",
                    Map.of("downloadLink", link)));
        });
    }

    /** A download link: the package, to the user it was made for, until it expires (403 otherwise). */
    @GetMapping("/v2.0/snapshots/{snapshotId}/download")
    public Mono<ResponseEntity<byte[]>> download(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                 @PathVariable String snapshotId) {
        Ids.require("snapshotId", snapshotId);
        String token = exchange.getRequest().getQueryParams().getFirst("token");
        return commands.blocking(() -> {
            snapshots.requireVisible(snapshotId, caller.actor());
            packages.checkLink(token, snapshotId, caller.userId(), Clock.nowSeconds());
            java.util.List<byte[]> found = jdbc.queryForList("SELECT package FROM cmd_snapshot_package "
                    + "WHERE snapshot_id = ?", byte[].class, snapshotId);
            if (found.isEmpty()) {
                throw DomainException.notFound("Snapshot " + snapshotId + " has no package.");
            }
            return found.get(0);
        }).map(bytes -> ResponseEntity.ok()
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .header("Content-Disposition", "attachment; filename=\"snapshot-" + snapshotId + ".json\"")
                .body(bytes));
    }

    /**
     * The official client's uploadSnapshotPackage (multipart: {@code projectId} and the package as {@code file}): a
     * package of this server, unchanged, becomes a new snapshot of the project (any project of the caller's
     * organisation) through an uploadSnapshotPackage Task. A changed or foreign file is a 400 at once.
     */
    @BodyMedia(MediaType.MULTIPART_FORM_DATA_VALUE)
    @PostMapping(value = "/v2.0/snapshots/upload")
    public Mono<ResponseEntity<byte[]>> upload(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        return UploadForm.read(exchange, UPLOAD_FIELDS, Set.of("fileName")).flatMap(form -> {
            String projectId = form.field("projectId");
            byte[] bytes = form.file();
            Ids.require("projectId", projectId);
            return commands.blocking(() -> packages.open(bytes)).flatMap(unpacked -> {
                Actor actor = caller.actor();
                SnapshotId snapshotId = SnapshotId.generate();
                TaskId taskId = TaskId.generate();
                return submit(exchange, media, ProjectId.of(projectId), taskId, UploadSnapshotPackageWork.TYPE,
                        parameters("snapshotId", snapshotId.value(), "projectId", projectId, "name", unpacked.name()),
                        actor, () -> {
                            jdbc.update("INSERT INTO cmd_snapshot_upload (task_id, name, description, resources, "
                                    + "content) VALUES (?, ?, ?, ?, ?) ON CONFLICT (task_id) DO NOTHING", taskId.value(),
                                    unpacked.name(), unpacked.description(), unpacked.resources(), unpacked.content());
                            return new RequestSnapshotCommand(SnapshotRegistryId.of(projectId), snapshotId, taskId,
                                    unpacked.name(), unpacked.description(), actor, Clock.nowSeconds());
                        });
            });
        });
    }

    private Mono<ResponseEntity<byte[]>> submit(ServerWebExchange exchange, ApiMedia media, ProjectId projectId,
                                                TaskId taskId, String type, Map<String, Object> parameters,
                                                Actor actor, Supplier<Object> command) {
        return tasks.accept(exchange, media, projectId, taskId, type, parameters, actor, command);
    }

    private static Map<String, Object> parameters(String... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
