package ai.convo.command.flow;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.CreateFlowCommand;
import ai.convo.contract.flow.DeleteFlowCommand;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.flow.FlowPatch;
import ai.convo.contract.flow.FlowRecord;
import ai.convo.contract.flow.UpdateFlowCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
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
public class FlowController {

    static final int MAX_NAME = 200;
    static final int MAX_DESCRIPTION = 2000;
    private static final Set<String> CREATE_FIELDS = Set.of("projectId", "name", "description");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "description");

    private final Commands commands;

    public FlowController(Commands commands) {
        this.commands = commands;
    }

    @PostMapping("/v2.0/flows")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String projectId = body.requiredId("projectId");
        String name = body.requiredString("name", 1, MAX_NAME);
        String description = body.optionalString("description", 0, MAX_DESCRIPTION);
        body.validate();
        FlowId flowId = FlowId.generate();
        long now = Clock.nowSeconds();
        CreateFlowCommand command = new CreateFlowCommand(flowId, ProjectId.of(projectId), caller.actor(),
                UUID.randomUUID().toString(), name, description == null ? "" : description, now);
        FlowRecord record = new FlowRecord(flowId.value(), name, command.description(), command.referenceId(), projectId,
                now, now, caller.userId(), caller.userId());
        return commands.send(command, flowId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("flow", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + flowId.value(), sent.position()));
    }

    /** Answers the full updated flow. */
    @PatchMapping("/v2.0/flows/{flowId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(PATCH_FIELDS);
        String name = body.optionalString("name", 1, MAX_NAME);
        String description = body.optionalString("description", 0, MAX_DESCRIPTION);
        body.validate();
        return commands.<FlowRecord>send(new UpdateFlowCommand(FlowId.of(flowId), caller.actor(),
                        new FlowPatch(name, description), Clock.nowSeconds()), flowId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("flow", sent.result().toWire()), null, sent.position()));
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
