package ai.convo.command.function;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.function.CreateFunctionCommand;
import ai.convo.contract.function.DeleteFunctionCommand;
import ai.convo.contract.function.FunctionId;
import ai.convo.contract.function.FunctionPatch;
import ai.convo.contract.function.FunctionRecord;
import ai.convo.contract.function.UpdateFunctionCommand;
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

@RestController
class FunctionController {

    private static final Set<String> CREATE_FIELDS = Set.of("projectId", "name", "code", "isDisabled");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "code", "isDisabled");

    private final Commands commands;

    public FunctionController(Commands commands) {
        this.commands = commands;
    }

    @PostMapping("/v2.0/functions")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String projectId = body.requiredId("projectId");
        String name = body.requiredString("name", 1, FunctionRecord.MAX_NAME_LENGTH);
        String code = body.requiredString("code", 0, FunctionRecord.MAX_CODE_LENGTH);
        Boolean disabled = body.optionalBoolean("isDisabled");
        body.validate();
        FunctionId functionId = FunctionId.generate();
        long now = Clock.nowSeconds();
        CreateFunctionCommand command = new CreateFunctionCommand(functionId, ProjectId.of(projectId), caller.actor(),
                UUID.randomUUID().toString(), name, code, Boolean.TRUE.equals(disabled), now);
        FunctionRecord record = new FunctionRecord(functionId.value(), name, code, command.referenceId(),
                command.disabled(), now, now, caller.userId(), caller.userId());
        return commands.send(command, functionId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("function", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + functionId.value(), sent.position()));
    }

    /** Answers the full updated record. */
    @PatchMapping("/v2.0/functions/{functionId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String functionId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("functionId", functionId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(PATCH_FIELDS);
        String name = body.optionalString("name", 1, FunctionRecord.MAX_NAME_LENGTH);
        String code = body.optionalString("code", 0, FunctionRecord.MAX_CODE_LENGTH);
        Boolean disabled = body.optionalBoolean("isDisabled");
        body.validate();
        UpdateFunctionCommand command = new UpdateFunctionCommand(FunctionId.of(functionId), caller.actor(),
                new FunctionPatch(name, code, disabled), Clock.nowSeconds());
        return commands.<FunctionRecord>send(command, functionId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("function", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/functions/{functionId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String functionId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("functionId", functionId);
        return commands.send(new DeleteFunctionCommand(FunctionId.of(functionId), caller.actor(), Clock.nowSeconds()),
                        functionId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }
}
