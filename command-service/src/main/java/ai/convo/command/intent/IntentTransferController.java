package ai.convo.command.intent;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.TaskRequests;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.command.web.UploadForm;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.openapi.BodyMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's exportIntents and importIntents, each a Task (see {@link IntentFile} for the formats,
 * {@link IntentImportPlan} for the modes). An export's file is read with GET .../intents/export/{taskId}, which its
 * task names in {@code parameters.file}, for a day. An import's file is checked when it is uploaded: a file this
 * server cannot read, or one naming intents that exist nowhere, is a 400 at once and no task is made.
 */
@RestController
class IntentTransferController {

    private static final Set<String> EXPORT_FIELDS = Set.of("localeId", "format");
    private static final Map<String, String> IMPORT_FIELDS = Map.of(
            "file", "the intents, as CSV (name, property type, value) or a JSON array",
            "localeId", "the locale the example sentences are written in",
            "mode", "what happens to intents the flow already has: " + String.join(", ", IntentImportPlan.MODES));

    private final Commands commands;
    private final IntentLookup lookup;
    private final ProjectCapture capture;
    private final TaskRequests tasks;
    private final JdbcTemplate jdbc;

    IntentTransferController(Commands commands, IntentLookup lookup, ProjectCapture capture, TaskRequests tasks,
                             JdbcTemplate jdbc) {
        this.commands = commands;
        this.lookup = lookup;
        this.capture = capture;
        this.tasks = tasks;
        this.jdbc = jdbc;
    }

    @PostMapping("/v2.0/flows/{flowId}/intents/export")
    public Mono<ResponseEntity<byte[]>> export(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(EXPORT_FIELDS);
        String localeId = body.requiredId("localeId");
        String format = body.requiredEnum("format", IntentFile::format, IntentFile.FORMATS);
        body.validate();
        Actor actor = caller.actor();
        TaskId taskId = TaskId.generate();
        return commands.blocking(() -> flowWithLocale(flowId, localeId, actor))
                .flatMap(flow -> tasks.accept(exchange, media, ProjectId.of(flow.projectId()), taskId,
                        ExportIntentsWork.TYPE, parameters("flowId", flowId, "localeId", localeId, "format", format,
                                "file", base(exchange) + "/v2.0/flows/" + flowId + "/intents/export/" + taskId.value()),
                        actor, null));
    }

    /** An export's file, to the flow's organisation, for a day after it was made (404 otherwise). */
    @GetMapping("/v2.0/flows/{flowId}/intents/export/{taskId}")
    public Mono<ResponseEntity<byte[]>> exported(@AuthenticationPrincipal ApiPrincipal caller,
                                                 @PathVariable String flowId, @PathVariable String taskId) {
        Ids.require("flowId", flowId);
        Ids.require("taskId", taskId);
        return commands.blocking(() -> {
            lookup.requireVisibleFlow(flowId, caller.actor());
            List<Map<String, Object>> rows = jdbc.queryForList("SELECT format, content FROM cmd_intent_export "
                    + "WHERE task_id = ? AND flow_id = ? AND organisation_id = ? AND made_at >= ?", taskId, flowId,
                    caller.organisationId(), Clock.nowSeconds() - ExportIntentsWork.KEEP_SECONDS);
            if (rows.isEmpty()) {
                throw DomainException.notFound("Flow " + flowId + " has no export " + taskId + ": the task has not "
                        + "finished, or the file is older than a day. Run exportIntents again.");
            }
            return rows.get(0);
        }).map(row -> {
            String format = (String) row.get("format");
            return ResponseEntity.ok().contentType(MediaType.parseMediaType(IntentFile.contentType(format)))
                    .header("Content-Disposition", "attachment; filename=\"intents-" + flowId + "." + format + "\"")
                    .body((byte[]) row.get("content"));
        });
    }

    @BodyMedia(MediaType.MULTIPART_FORM_DATA_VALUE)
    @PostMapping("/v2.0/flows/{flowId}/intents/import")
    public Mono<ResponseEntity<byte[]>> importIntents(ServerWebExchange exchange,
                                                      @AuthenticationPrincipal ApiPrincipal caller,
                                                      @PathVariable String flowId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Actor actor = caller.actor();
        return UploadForm.read(exchange, IMPORT_FIELDS, Set.of("fileName")).flatMap(form -> {
            String localeId = form.field("localeId");
            String mode = form.field("mode");
            Ids.require("localeId", localeId);
            if (IntentImportPlan.mode(mode).isEmpty()) {
                throw ApiProblem.badRequest("mode must be one of " + String.join(", ", IntentImportPlan.MODES)
                        + "; got '" + mode + "'.", Map.of("mode", "must be one of "
                        + String.join(", ", IntentImportPlan.MODES)));
            }
            byte[] file = form.file();
            TaskId taskId = TaskId.generate();
            // reading up to 2 MiB of CSV or JSON is work for a worker thread, as are the checks against the flow
            return commands.blocking(() -> {
                List<IntentFile.Entry> entries = IntentFile.read(file);
                FlowLookup.Flow flow = flowWithLocale(flowId, localeId, actor);
                // names, parents and cycles are checked against the flow now: a file that cannot apply is a 400
                IntentImportPlan.build(entries, capture.intentsOf(flowId), flowId,
                        localeId, mode, actor, Clock.nowSeconds());
                return new Checked(flow, entries.size());
            }).flatMap(checked -> tasks.accept(exchange, media, ProjectId.of(checked.flow().projectId()), taskId,
                    ImportIntentsWork.TYPE, withCount(parameters("flowId", flowId, "localeId", localeId, "mode", mode),
                            checked.intents()), actor, () -> {
                        jdbc.update("INSERT INTO cmd_intent_import (task_id, content) VALUES (?, ?) "
                                + "ON CONFLICT (task_id) DO NOTHING", taskId.value(), file);
                        return null;
                    }));
        });
    }

    /** An uploaded file that applies to the flow, and how many intents it holds. */
    private record Checked(FlowLookup.Flow flow, int intents) {
    }

    private FlowLookup.Flow flowWithLocale(String flowId, String localeId, Actor actor) {
        FlowLookup.Flow flow = lookup.requireVisibleFlow(flowId, actor);
        if (!lookup.projectOfLocale(localeId).map(flow.projectId()::equals).orElse(false)) {
            throw DomainException.invalid("localeId", "localeId " + localeId + " is not a locale of this flow's project.");
        }
        return flow;
    }

    /** The base path: the request path up to its version segment. */
    private static String base(ServerWebExchange exchange) {
        String path = exchange.getRequest().getPath().value();
        return path.substring(0, path.indexOf("/v2.0/"));
    }

    private static Map<String, Object> withCount(Map<String, Object> parameters, int intents) {
        parameters.put("intents", intents);
        return parameters;
    }

    private static Map<String, Object> parameters(String... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
