package ai.convo.command.slotfiller;

import ai.convo.command.web.BatchBody;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.slotfiller.CreateSlotFillerCommand;
import ai.convo.contract.slotfiller.DeleteSlotFillerCommand;
import ai.convo.contract.slotfiller.SlotFillerId;
import ai.convo.contract.slotfiller.SlotFillerPatch;
import ai.convo.contract.slotfiller.SlotFillerRecord;
import ai.convo.contract.slotfiller.SlotFillerRules;
import ai.convo.contract.slotfiller.SlotFillerSettings;
import ai.convo.contract.slotfiller.UpdateSlotFillerCommand;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.List;
import java.util.Optional;
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
 * The official client's createSlotFiller, updateSlotFiller, deleteSlotFiller and batchSlotFillers. Create and update
 * answer the slot filler as stored (the client's update expects {@code {}} and ignores the body), delete a 204, the
 * batch {@code {created, updated, deleted}}.
 */
@RestController
class SlotFillerController {

    static final Set<String> FIELDS = Set.of("name", "type", "regex", "slot", "usePositiveOnly", "removeNegated",
            "storeResultInContext", "contextKey", "storeInContactProfile", "profileKey", "storeDetailedResults",
            "skipIfResultInContext", "additionalValidation", "resultLocation");
    // what a read shows but a write does not take: sent back inside a batch value, they are skipped
    private static final Set<String> BATCH_SKIPPED = Set.of("_id", "referenceId", "createdAt", "lastChanged",
            "createdBy", "lastChangedBy");
    private static final String SLOT_FILLERS = "/v2.0/flows/{flowId}/slotfillers";

    private final Commands commands;

    SlotFillerController(Commands commands) {
        this.commands = commands;
    }

    @PostMapping(SLOT_FILLERS)
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        CreateSlotFillerCommand command = createCommand(JsonBody.parse(exchange, raw, true), flowId, caller);
        SlotFillerRecord record = new SlotFillerRecord(command.slotFillerId().value(), command.referenceId(),
                command.settings(), command.at(), command.at(), caller.userId(), caller.userId());
        return commands.send(command, command.slotFillerId().value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("slotFiller", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + command.slotFillerId().value(),
                        sent.position()));
    }

    @PatchMapping(SLOT_FILLERS + "/{slotFillerId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @PathVariable String slotFillerId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("slotFillerId", slotFillerId);
        UpdateSlotFillerCommand command = updateCommand(JsonBody.parse(exchange, raw, false), flowId, slotFillerId,
                caller);
        return commands.<SlotFillerRecord>send(command, slotFillerId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("slotFiller", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping(SLOT_FILLERS + "/{slotFillerId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String flowId, @PathVariable String slotFillerId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("slotFillerId", slotFillerId);
        return commands.send(new DeleteSlotFillerCommand(SlotFillerId.of(slotFillerId), FlowId.of(flowId),
                        caller.actor(), Clock.nowSeconds()), slotFillerId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    /**
     * The official client's batchSlotFillers: creates, updates and deletes of the flow's slot fillers, each read as
     * its own request would be and sent as its own command, all in one transaction: all are stored or none.
     */
    @PatchMapping(SLOT_FILLERS)
    public Mono<ResponseEntity<byte[]>> batch(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @PathVariable String flowId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        BatchBody batch = BatchBody.parse(JsonBody.parse(exchange, raw, true), FIELDS, BATCH_SKIPPED);
        List<Object> operations = batch.read((o, value) -> switch (o.op()) {
            case CREATE -> createCommand(JsonBody.parse(exchange, value, false), flowId, caller);
            case UPDATE -> updateCommand(JsonBody.parse(exchange, value, false), flowId, o.id(), caller);
            case DELETE -> new DeleteSlotFillerCommand(SlotFillerId.of(o.id()), FlowId.of(flowId), caller.actor(),
                    Clock.nowSeconds());
        });
        List<String> ids = batch.ids(operations, command -> ((CreateSlotFillerCommand) command).slotFillerId().value());
        return commands.sendTogether(operations, batch.labels(), ids)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("batch", BatchBody.wire(batch.result(ids))), null, sent.position()));
    }

    /** A create as POST reads it: every problem of the body and of the type rules in one 400. */
    private static CreateSlotFillerCommand createCommand(JsonBody body, String flowId, ApiPrincipal caller) {
        body.allowOnly(FIELDS);
        String name = body.requiredString("name", 1, SlotFillerRules.MAX_NAME_LENGTH);
        String type = body.requiredEnum("type", SlotFillerController::type, SlotFillerRules.TYPES);
        String regex = nullable(body, "regex", SlotFillerRules.MAX_REGEX_LENGTH);
        String slot = nullable(body, "slot", SlotFillerRules.MAX_SLOT_LENGTH);
        Boolean usePositiveOnly = body.optionalBoolean("usePositiveOnly");
        Boolean removeNegated = body.optionalBoolean("removeNegated");
        Boolean storeResultInContext = body.optionalBoolean("storeResultInContext");
        String contextKey = body.optionalString("contextKey", 0, SlotFillerRules.MAX_KEY_LENGTH);
        Boolean storeInContactProfile = body.optionalBoolean("storeInContactProfile");
        String profileKey = body.optionalString("profileKey", 0, SlotFillerRules.MAX_KEY_LENGTH);
        Boolean storeDetailedResults = body.optionalBoolean("storeDetailedResults");
        Boolean skipIfResultInContext = body.optionalBoolean("skipIfResultInContext");
        String additionalValidation = body.optionalString("additionalValidation", 0,
                SlotFillerRules.MAX_VALIDATION_LENGTH);
        String resultLocation = body.optionalString("resultLocation", 0, SlotFillerRules.MAX_KEY_LENGTH);
        SlotFillerSettings settings = new SlotFillerSettings(name, type, regex, slot,
                Boolean.TRUE.equals(usePositiveOnly), Boolean.TRUE.equals(removeNegated),
                !Boolean.FALSE.equals(storeResultInContext), orEmpty(contextKey),
                Boolean.TRUE.equals(storeInContactProfile), orEmpty(profileKey), Boolean.TRUE.equals(storeDetailedResults),
                Boolean.TRUE.equals(skipIfResultInContext), orEmpty(additionalValidation), orEmpty(resultLocation));
        // the type rules, where the fields they relate were read (a field refused as sent keeps that problem)
        java.util.Map<String, String> rules = new java.util.LinkedHashMap<>();
        if (name != null && type != null) {
            SlotFillerRules.problems(settings).forEach((field, problem) -> {
                boolean refusedAsSent = body.has(field) && !body.isNull(field)
                        && (field.equals("regex") ? regex == null : field.equals("slot") && slot == null);
                if (!refusedAsSent) {
                    rules.put(field, problem);
                }
            });
        }
        body.validate(rules);
        return new CreateSlotFillerCommand(SlotFillerId.generate(), FlowId.of(flowId), caller.actor(),
                UUID.randomUUID().toString(), settings, Clock.nowSeconds());
    }

    /** An update as PATCH reads it; the type rules are the aggregate's, against the stored slot filler. */
    private static UpdateSlotFillerCommand updateCommand(JsonBody body, String flowId, String slotFillerId,
                                                         ApiPrincipal caller) {
        body.allowOnly(FIELDS);
        Ids.require("slotFillerId", slotFillerId);
        SlotFillerPatch patch = new SlotFillerPatch(
                body.optionalString("name", 1, SlotFillerRules.MAX_NAME_LENGTH),
                body.optionalEnum("type", SlotFillerController::type, SlotFillerRules.TYPES),
                nullable(body, "regex", SlotFillerRules.MAX_REGEX_LENGTH),
                nullable(body, "slot", SlotFillerRules.MAX_SLOT_LENGTH),
                body.optionalBoolean("usePositiveOnly"),
                body.optionalBoolean("removeNegated"),
                body.optionalBoolean("storeResultInContext"),
                body.optionalString("contextKey", 0, SlotFillerRules.MAX_KEY_LENGTH),
                body.optionalBoolean("storeInContactProfile"),
                body.optionalString("profileKey", 0, SlotFillerRules.MAX_KEY_LENGTH),
                body.optionalBoolean("storeDetailedResults"),
                body.optionalBoolean("skipIfResultInContext"),
                body.optionalString("additionalValidation", 0, SlotFillerRules.MAX_VALIDATION_LENGTH),
                body.optionalString("resultLocation", 0, SlotFillerRules.MAX_KEY_LENGTH));
        body.validate();
        return new UpdateSlotFillerCommand(SlotFillerId.of(slotFillerId), FlowId.of(flowId), caller.actor(), patch,
                Clock.nowSeconds());
    }

    /** regex and slot: a string, or null (the client may send null where the type takes none). */
    private static String nullable(JsonBody body, String field, int max) {
        return body.isNull(field) ? null : body.optionalString(field, 1, max);
    }

    private static Optional<String> type(String wire) {
        return SlotFillerRules.TYPES.contains(wire) ? Optional.of(wire) : Optional.empty();
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
