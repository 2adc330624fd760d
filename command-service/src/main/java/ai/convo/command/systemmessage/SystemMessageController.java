package ai.convo.command.systemmessage;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.systemmessage.CreateSystemMessageCommand;
import ai.convo.contract.systemmessage.SystemMessageId;
import ai.convo.contract.systemmessage.SystemMessageRecord;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.persistence.PrincipalKeys;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The specification's system message creation (Basic authentication only, see RoutePolicy). */
@RestController
class SystemMessageController {

    private static final Set<String> FIELDS = Set.of("until", "message", "showOnLogin");

    private final Commands commands;

    public SystemMessageController(Commands commands) {
        this.commands = commands;
    }

    /**
     * 201 with the record, HAL+JSON unless asked otherwise. No Location: a message is read only as "the current
     * one" (GET /v2.0/system/message), never by id.
     */
    @PostMapping("/management/v2.0/system/createsystemmessage")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.HAL);
        // The aggregate decides this rule too; asking here first answers 403 before any word about the body.
        if (!caller.isSystemAdmin()) {
            throw DomainException.forbidden("Only a system administrator can create system messages.");
        }
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(FIELDS);
        Long until = body.requiredLong("until", 0, SystemMessageRecord.MAX_UNTIL);
        String message = body.requiredString("message", 1, SystemMessageRecord.MAX_MESSAGE_LENGTH);
        Boolean showOnLogin = body.optionalBoolean("showOnLogin");
        body.validate();
        SystemMessageId id = SystemMessageId.generate();
        long now = Clock.nowSeconds();
        boolean shown = Boolean.TRUE.equals(showOnLogin);
        SystemMessageRecord record = new SystemMessageRecord(id.value(), message, until, shown, now, now,
                caller.userId(), caller.userId());
        return commands.sendReadBy(PrincipalKeys.SYSTEM_MESSAGE, new CreateSystemMessageCommand(id, caller.actor(), message, until, shown, now), id.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("systemMessage", record.toWire()), null, sent.position()));
    }
}
