package ai.convo.command.token;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.token.CreateTokenCommand;
import ai.convo.contract.token.DeleteTokenCommand;
import ai.convo.contract.token.TokenId;
import ai.convo.contract.token.TokenPatch;
import ai.convo.contract.token.TokenRecord;
import ai.convo.contract.token.TokenType;
import ai.convo.contract.token.UpdateTokenCommand;
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

/** Writes of Tokens, which the API (and the official client) calls snippets. */
@RestController
class TokenController {

    private static final Set<String> FIELDS = Set.of("label", "type", "script");

    private final Commands commands;

    public TokenController(Commands commands) {
        this.commands = commands;
    }

    @PostMapping("/v2.0/projects/{projectId}/snippets")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(FIELDS);
        String label = body.requiredString("label", 1, TokenRecord.MAX_LABEL_LENGTH);
        TokenType type = body.requiredEnum("type", TokenType::fromCode, TokenType.codes());
        String script = body.requiredString("script", 1, TokenRecord.MAX_SCRIPT_LENGTH);
        body.validate();
        TokenId tokenId = TokenId.generate();
        long now = Clock.nowSeconds();
        CreateTokenCommand command = new CreateTokenCommand(tokenId, ProjectId.of(projectId), caller.actor(),
                UUID.randomUUID().toString(), label, type, script, now);
        TokenRecord record = new TokenRecord(tokenId.value(), label, type.code(), script, command.referenceId(), now,
                now, caller.userId(), caller.userId());
        return commands.send(command, tokenId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("token", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + tokenId.value(), sent.position()));
    }

    /** Answers the full updated record. Default tokens are built in: 409. */
    @PatchMapping("/v2.0/projects/{projectId}/snippets/{snippetId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId, @PathVariable String snippetId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Ids.require("snippetId", snippetId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(FIELDS);
        String label = body.optionalString("label", 1, TokenRecord.MAX_LABEL_LENGTH);
        TokenType type = body.optionalEnum("type", TokenType::fromCode, TokenType.codes());
        String script = body.optionalString("script", 1, TokenRecord.MAX_SCRIPT_LENGTH);
        body.validate();
        UpdateTokenCommand command = new UpdateTokenCommand(TokenId.of(snippetId), ProjectId.of(projectId),
                caller.actor(), new TokenPatch(label, type, script), Clock.nowSeconds());
        return commands.<TokenRecord>send(command, snippetId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("token", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/projects/{projectId}/snippets/{snippetId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId, @PathVariable String snippetId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Ids.require("snippetId", snippetId);
        return commands.send(new DeleteTokenCommand(TokenId.of(snippetId), ProjectId.of(projectId), caller.actor(),
                        Clock.nowSeconds()), snippetId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }
}
