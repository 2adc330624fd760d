package ai.convo.command.flow;

import ai.convo.command.web.BatchBody;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.CreateFlowCommand;
import ai.convo.contract.flow.DeleteFlowCommand;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.flow.FlowPatch;
import ai.convo.contract.flow.FlowRecord;
import ai.convo.contract.flow.UpdateFlowCommand;
import ai.convo.contract.flow.UpdateFlowSettingsCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.settings.Settings;
import ai.convo.contract.settings.SettingsRecord;
import ai.convo.contract.settings.SettingsSchema;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Writes of flows, on the paths the official client uses (createFlow, updateFlow, deleteFlow). */
@RestController
class FlowController {

    static final int MAX_NAME = 200;
    static final int MAX_DESCRIPTION = 2000;
    private static final Set<String> CREATE_FIELDS = Set.of("projectId", "name", "description");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "description");
    // what a read shows but a write does not take: sent back inside a batch value, they are skipped
    private static final Set<String> BATCH_SKIPPED = Set.of("_id", "referenceId", "createdAt", "lastChanged",
            "createdBy", "lastChangedBy", "projectReference", "localeReference", "feedbackReport", "isTrainingOutOfDate");

    private final Commands commands;
    private final FlowCopies copies;

    public FlowController(Commands commands, FlowCopies copies) {
        this.commands = commands;
        this.copies = copies;
    }

    @PostMapping("/v2.0/flows")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String projectId = body.requiredId("projectId");
        CreateFlowCommand command = createCommand(body, projectId, caller);
        FlowId flowId = command.flowId();
        String name = command.name();
        long now = command.at();
        FlowRecord record = new FlowRecord(flowId.value(), name, command.description(), command.referenceId(), projectId,
                now, now, caller.userId(), caller.userId());
        return commands.send(command, flowId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("flow", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + flowId.value(), sent.position()));
    }

    /**
     * The official client's cloneFlow: a copy of the flow in its project, named "<name> (copy)", with copies of its
     * intents (their hierarchy and sentences) and states, all new ids, written in one transaction. Answers the new flow.
     */
    @PostMapping("/v2.0/flows/{flowId}/clone")
    public Mono<ResponseEntity<byte[]>> cloneFlow(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                  @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        JsonBody.parse(exchange, raw, false).allowOnly(Set.of()).validate();
        return commands.blocking(() -> copies.plan(flowId, caller.actor()))
                .flatMap(plan -> commands.sendTogether(plan.commands(), plan.labels(), plan.aggregateIds())
                        .map(sent -> {
                            CreateFlowCommand created = (CreateFlowCommand) plan.commands().get(0);
                            FlowRecord record = new FlowRecord(plan.flowId(), created.name(), created.description(),
                                    created.referenceId(), created.projectId().value(), created.at(), created.at(),
                                    caller.userId(), caller.userId());
                            return ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                                    new Representation.Single("flow", record.toWire()),
                                    flowsPath(exchange, flowId) + plan.flowId(), sent.position());
                        }));
    }

    /** The request's path up to and including "/flows/" (with whatever base path it came under). */
    private static String flowsPath(ServerWebExchange exchange, String flowId) {
        String path = exchange.getRequest().getPath().value();
        return path.substring(0, path.lastIndexOf("/" + flowId + "/") + 1);
    }

    /** Answers the full updated flow. */
    @PatchMapping("/v2.0/flows/{flowId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        UpdateFlowCommand command = updateCommand(JsonBody.parse(exchange, raw, false), flowId, null, caller);
        return commands.<FlowRecord>send(command, flowId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("flow", sent.result().toWire()), null, sent.position()));
    }

    /**
     * The official client's batchFlows (PATCH /v2.0/flows?projectId=): creates, updates and deletes of one project's
     * flows, each read as its own request would be and sent as its own command, all in one transaction
     * (Commands#sendTogether): all of them are stored or none. Updates and deletes name flows of that project only.
     */
    @PatchMapping("/v2.0/flows")
    public Mono<ResponseEntity<byte[]>> batch(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        String projectId = Ids.require("projectId", exchange.getRequest().getQueryParams().getFirst("projectId"));
        BatchBody batch = BatchBody.parse(JsonBody.parse(exchange, raw, true), PATCH_FIELDS, BATCH_SKIPPED);
        List<Object> operations = batch.read((o, value) -> switch (o.op()) {
            case CREATE -> createCommand(JsonBody.parse(exchange, value, false), projectId, caller);
            case UPDATE -> updateCommand(JsonBody.parse(exchange, value, false), o.id(), ProjectId.of(projectId), caller);
            case DELETE -> new DeleteFlowCommand(FlowId.of(o.id()), caller.actor(), Clock.nowSeconds(),
                    ProjectId.of(projectId));
        });
        List<String> ids = batch.ids(operations, command -> ((CreateFlowCommand) command).flowId().value());
        return commands.sendTogether(operations, batch.labels(), ids)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("batch", BatchBody.wire(batch.result(ids))), null, sent.position()));
    }

    /** A create as POST /v2.0/flows reads it (its other fields; the project is given). */
    private static CreateFlowCommand createCommand(JsonBody body, String projectId, ApiPrincipal caller) {
        String name = body.requiredString("name", 1, MAX_NAME);
        String description = body.optionalString("description", 0, MAX_DESCRIPTION);
        body.validate();
        return new CreateFlowCommand(FlowId.generate(), ProjectId.of(projectId), caller.actor(),
                UUID.randomUUID().toString(), name, description == null ? "" : description, Clock.nowSeconds());
    }

    /** An update as PATCH /v2.0/flows/{flowId} reads it. */
    private static UpdateFlowCommand updateCommand(JsonBody body, String flowId, ProjectId inProject,
                                                   ApiPrincipal caller) {
        body.allowOnly(PATCH_FIELDS);
        Ids.require("flowId", flowId);
        String name = body.optionalString("name", 1, MAX_NAME);
        String description = body.optionalString("description", 0, MAX_DESCRIPTION);
        body.validate();
        return new UpdateFlowCommand(FlowId.of(flowId), caller.actor(), new FlowPatch(name, description),
                Clock.nowSeconds(), inProject);
    }

    /**
     * The official client's updateFlowSettings: any part of the settings, nested as a read shows them, and
     * {@code localeSettings} as one {localeReference, inheritFallbackLocaleModel} (the client's shape) or a list of
     * them (a read's shape, so a read sent back is fine: its _id and dates are skipped). Answers the full settings.
     */
    @PatchMapping("/v2.0/flows/{flowId}/settings")
    public Mono<ResponseEntity<byte[]>> updateSettings(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String flowId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        JsonBody body = JsonBody.parse(exchange, raw, false);
        Map<String, Object> fields = new LinkedHashMap<>(body.asMap());
        Map<String, String> problems = new LinkedHashMap<>();
        Map<String, Boolean> locales = localeSettings(fields.remove("localeSettings"), problems);
        SettingsSchema.Patch patch = Settings.FLOW.patch(fields, Settings.METADATA);
        problems.putAll(patch.problems());
        body.validate(problems);
        return commands.<SettingsRecord>send(new UpdateFlowSettingsCommand(FlowId.of(flowId), caller.actor(),
                        patch.changes(), locales, Clock.nowSeconds()), flowId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("settings", sent.result().toWire(Settings.FLOW)), null,
                        sent.position()));
    }

    private static final String LOCALE_SETTING = "an object {localeReference: a locale id, "
            + "inheritFallbackLocaleModel: true or false}, or a list of such objects";

    /** localeSettings as locale id to inheritFallbackLocaleModel; problems go to {@code problems}. */
    private static Map<String, Boolean> localeSettings(Object value, Map<String, String> problems) {
        Map<String, Boolean> locales = new LinkedHashMap<>();
        if (value == null) {
            return locales;
        }
        List<?> items = value instanceof List<?> list ? list : List.of(value);
        if (items.size() > 100) {
            problems.put("localeSettings", "must be " + LOCALE_SETTING + " (at most 100)");
            return locales;
        }
        for (Object item : items) {
            if (!(item instanceof Map<?, ?> one) || !Set.of("localeReference", "inheritFallbackLocaleModel")
                    .containsAll(one.keySet())
                    || !(one.get("localeReference") instanceof String id) || !Ids.isValid(id)
                    || !(one.get("inheritFallbackLocaleModel") instanceof Boolean inherit)
                    || locales.put(id, inherit) != null) {
                problems.put("localeSettings", "must be " + LOCALE_SETTING + ", each locale once");
                return Map.of();
            }
        }
        return locales;
    }

    /** Deletes the flow with its states (and, through the intents feature, its intents). */
    @DeleteMapping("/v2.0/flows/{flowId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        return commands.send(new DeleteFlowCommand(FlowId.of(flowId), caller.actor(), Clock.nowSeconds()), flowId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }
}
