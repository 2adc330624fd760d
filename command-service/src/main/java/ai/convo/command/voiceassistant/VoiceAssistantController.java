package ai.convo.command.voiceassistant;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.voiceassistant.LinkVoiceAssistantCommand;
import ai.convo.contract.voiceassistant.UnlinkVoiceAssistantCommand;
import ai.convo.contract.voiceassistant.VoiceAssistant;
import ai.convo.contract.voiceassistant.VoiceAssistantAccountId;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkRecord;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Linking and unlinking the caller's own voice-assistant account (the only assistant is alexa). */
@RestController
class VoiceAssistantController {

    private static final Set<String> FIELDS = Set.of("accessToken", "refreshToken");

    private final Commands commands;

    public VoiceAssistantController(Commands commands) {
        this.commands = commands;
    }

    /** Links the caller's account, replacing a link they already have; answers the link without its tokens. */
    @PostMapping("/v2.0/external/{voiceAssistant}/users")
    public Mono<ResponseEntity<byte[]>> link(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String voiceAssistant, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        VoiceAssistant assistant = assistant(voiceAssistant);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(FIELDS);
        String accessToken = body.requiredString("accessToken", 1, VoiceAssistantLinkRecord.MAX_TOKEN_LENGTH);
        String refreshToken = body.requiredString("refreshToken", 1, VoiceAssistantLinkRecord.MAX_TOKEN_LENGTH);
        body.validate();
        VoiceAssistantAccountId accountId = VoiceAssistantAccountId.of(assistant, caller.userId());
        LinkVoiceAssistantCommand command = new LinkVoiceAssistantCommand(accountId, assistant, caller.actor(),
                Ids.newId(), accessToken, refreshToken, Clock.nowSeconds());
        return commands.<VoiceAssistantLinkRecord>send(command, accountId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("voiceAssistantLink", sent.result().toWire()),
                        exchange.getRequest().getPath().value() + "/me", sent.position()));
    }

    /** The specification's account delete (HAL+JSON by default, though a 204 has no body): 404 when none is linked. */
    @DeleteMapping("/v2.0/external/{voiceAssistant}/users/me")
    public Mono<ResponseEntity<byte[]>> unlink(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String voiceAssistant) {
        Negotiation.negotiate(exchange, ApiMedia.HAL);
        VoiceAssistant assistant = assistant(voiceAssistant);
        VoiceAssistantAccountId accountId = VoiceAssistantAccountId.of(assistant, caller.userId());
        return commands.send(new UnlinkVoiceAssistantCommand(accountId, assistant, caller.actor(), Clock.nowSeconds()),
                        accountId.value())
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    static VoiceAssistant assistant(String segment) {
        String shown = segment.length() > 40 ? segment.substring(0, 40) + "..." : segment;
        return VoiceAssistant.fromCode(segment).orElseThrow(() -> ApiProblem.notFound("There is no voice assistant '"
                + shown + "'; the supported one is: " + String.join(", ", VoiceAssistant.codes()) + "."));
    }
}
