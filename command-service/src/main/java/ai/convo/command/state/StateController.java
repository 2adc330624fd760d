package ai.convo.command.state;

import ai.convo.command.web.BatchBody;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.state.AddIntentToStateCommand;
import ai.convo.contract.state.BatchStatesCommand;
import ai.convo.contract.state.CreateStateCommand;
import ai.convo.contract.state.DeleteStateCommand;
import ai.convo.contract.state.RemoveIntentFromStateCommand;
import ai.convo.contract.state.StateId;
import ai.convo.contract.state.StateOperation;
import ai.convo.contract.state.StatePatch;
import ai.convo.contract.state.StateRecord;
import ai.convo.contract.state.StateType;
import ai.convo.contract.state.UpdateStateCommand;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.List;
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

/**
 * Writes of the (deprecated) states of a flow, on the official client's paths (createFlowState, updateFlowState,
 * deleteFlowState, addIntentToFlowState, removeIntentFromFlowState). The deprecation headers come from the
 * shared DeprecationHeaders filter.
 */
@RestController
class StateController {

    static final int MAX_NAME = 200;
    private static final Set<String> CREATE_FIELDS = Set.of("name", "type", "isDefault", "intentIds");
    private static final Set<String> PATCH_FIELDS = CREATE_FIELDS;
    private static final Set<String> INTENT_FIELDS = Set.of("intentId");
    private static final Set<String> BATCH_SKIPPED = Set.of("_id", "referenceId", "createdAt", "lastChanged",
            "createdBy", "lastChangedBy");

    private final Commands commands;

    public StateController(Commands commands) {
        this.commands = commands;
    }

    /** {@code type} defaults to {@code blacklist} (with no intents: nothing is disabled), {@code isDefault} to false. */
    @PostMapping("/v2.0/flows/{flowId}/states")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        CreateStateCommand command = createCommand(exchange, raw, flowId, caller);
        StateId stateId = command.stateId();
        return commands.<StateRecord>send(command, flowId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("state", sent.result().toWire()),
                        exchange.getRequest().getPath().value() + "/" + stateId.value(), sent.position()));
    }

    /** Answers the full updated state; {@code intentIds} replaces the list; {@code isDefault: true} demotes the old default. */
    @PatchMapping("/v2.0/flows/{flowId}/states/{stateId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @PathVariable String stateId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("stateId", stateId);
        UpdateStateCommand command = updateCommand(exchange, raw, flowId, stateId, caller);
        return respond(exchange, media, commands.send(command, flowId));
    }

    /**
     * The official client's batchFlowStates: creates, updates and deletes of a flow's states, each read as its own
     * request would be, all in one command, so all of them or none are stored. Answers {created, updated, deleted}.
     */
    @PatchMapping("/v2.0/flows/{flowId}/states")
    public Mono<ResponseEntity<byte[]>> batch(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        BatchBody batch = BatchBody.parse(JsonBody.parse(exchange, raw, true), CREATE_FIELDS, BATCH_SKIPPED);
        List<StateOperation> operations = batch.read((o, value) -> switch (o.op()) {
            case CREATE -> StateOperation.create(createCommand(exchange, value, flowId, caller));
            case UPDATE -> StateOperation.update(updateCommand(exchange, value, flowId, o.id(), caller));
            case DELETE -> StateOperation.delete(new DeleteStateCommand(FlowId.of(flowId), StateId.of(o.id()),
                    caller.actor(), Clock.nowSeconds()));
        });
        return commands.<BatchResult>send(new BatchStatesCommand(FlowId.of(flowId), caller.actor(), operations), flowId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("batch", BatchBody.wire(sent.result())), null, sent.position()));
    }

    /** A create as POST .../states reads it. */
    private static CreateStateCommand createCommand(ServerWebExchange exchange, byte[] raw, String flowId,
                                                    ApiPrincipal caller) {
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        StateBody state = new StateBody(raw);
        String name = body.requiredString("name", 1, MAX_NAME);
        StateType type = body.optionalEnum("type", StateType::fromCode, StateType.codes());
        Boolean isDefault = body.optionalBoolean("isDefault");
        List<IntentId> intentIds = state.optionalIntentIds("intentIds");
        state.validate(body);
        return new CreateStateCommand(FlowId.of(flowId), StateId.generate(), caller.actor(),
                UUID.randomUUID().toString(), name, type == null ? StateType.BLACKLIST : type,
                Boolean.TRUE.equals(isDefault), intentIds, Clock.nowSeconds());
    }

    /** An update as PATCH .../states/{stateId} reads it. */
    private static UpdateStateCommand updateCommand(ServerWebExchange exchange, byte[] raw, String flowId,
                                                    String stateId, ApiPrincipal caller) {
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(PATCH_FIELDS);
        StateBody state = new StateBody(raw);
        String name = body.optionalString("name", 1, MAX_NAME);
        StateType type = body.optionalEnum("type", StateType::fromCode, StateType.codes());
        Boolean isDefault = body.optionalBoolean("isDefault");
        List<IntentId> intentIds = state.optionalIntentIds("intentIds");
        state.validate(body);
        return new UpdateStateCommand(FlowId.of(flowId), StateId.of(stateId), caller.actor(),
                new StatePatch(name, type, isDefault, intentIds), Clock.nowSeconds());
    }

    @DeleteMapping("/v2.0/flows/{flowId}/states/{stateId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @PathVariable String stateId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("stateId", stateId);
        return commands.send(new DeleteStateCommand(FlowId.of(flowId), StateId.of(stateId), caller.actor(),
                        Clock.nowSeconds()), flowId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    /** Adds an intent of the same flow; answers 200 with the full state (also when it was already there). */
    @PostMapping("/v2.0/flows/{flowId}/states/{stateId}/addintent")
    public Mono<ResponseEntity<byte[]>> addIntent(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                  @PathVariable String flowId, @PathVariable String stateId,
                                                  @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("stateId", stateId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(INTENT_FIELDS);
        String intentId = body.requiredId("intentId");
        body.validate();
        return respond(exchange, media, commands.send(new AddIntentToStateCommand(FlowId.of(flowId),
                StateId.of(stateId), caller.actor(), IntentId.of(intentId), Clock.nowSeconds()), flowId));
    }

    /** Removes an intent; answers 200 with the full state (also when it was not there). */
    @PostMapping("/v2.0/flows/{flowId}/states/{stateId}/removeintent")
    public Mono<ResponseEntity<byte[]>> removeIntent(ServerWebExchange exchange,
                                                     @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String flowId, @PathVariable String stateId,
                                                     @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("stateId", stateId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(INTENT_FIELDS);
        String intentId = body.requiredId("intentId");
        body.validate();
        return respond(exchange, media, commands.send(new RemoveIntentFromStateCommand(FlowId.of(flowId),
                StateId.of(stateId), caller.actor(), IntentId.of(intentId), Clock.nowSeconds()), flowId));
    }

    private static Mono<ResponseEntity<byte[]>> respond(ServerWebExchange exchange, ApiMedia media,
                                                        Mono<Commands.Sent<StateRecord>> sent) {
        return sent.map(done -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                new Representation.Single("state", done.result().toWire()), null, done.position()));
    }
}
