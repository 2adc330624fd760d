package ai.convo.query.voiceassistant;

import ai.convo.contract.voiceassistant.VoiceAssistant;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkRecord;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import io.r2dbc.spi.Readable;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import ai.convo.query.web.AsOf;
import ai.convo.query.readmodel.ReadModel;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The caller's own voice-assistant link: its meta, its tokens masked (no reader can open them). */
@RestController
class VoiceAssistantQueryController {

    private final DatabaseClient db;

    public VoiceAssistantQueryController(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    @GetMapping("/v2.0/external/{voiceAssistant}/users/me")
    public Mono<ResponseEntity<byte[]>> me(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                           @PathVariable String voiceAssistant) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        VoiceAssistant assistant = assistant(voiceAssistant);
        // the link view keeps only the live link, with no version history for asOf to read
        AsOf.refuse(exchange, "a voice-assistant link keeps no history. Its events are in "
                + "GET /v2.0/eventlog?resourceType=voiceAssistantAccount.");
        return db.sql("SELECT * FROM voice_assistant_link_view WHERE user_id = :user AND organisation_id = :org "
                        + "AND voice_assistant = :assistant")
                .bind("user", caller.userId()).bind("org", caller.organisationId())
                .bind("assistant", assistant.code())
                .map(VoiceAssistantQueryController::wire).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("No " + assistant.code() + " account is linked to "
                        + "your user; link one with POST /v2.0/external/" + assistant.code() + "/users.")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("voiceAssistantLink", record)));
    }

    static VoiceAssistant assistant(String segment) {
        String shown = segment.length() > 40 ? segment.substring(0, 40) + "..." : segment;
        return VoiceAssistant.fromCode(segment).orElseThrow(() -> ApiProblem.notFound("There is no voice assistant '"
                + shown + "'; the supported one is: " + String.join(", ", VoiceAssistant.codes()) + "."));
    }

    static Map<String, Object> wire(Readable row) {
        return new VoiceAssistantLinkRecord(row.get("link_id", String.class), row.get("user_id", String.class),
                row.get("organisation_id", String.class), row.get("voice_assistant", String.class), row.get("created_at", Long.class),
                row.get("created_by", String.class)).toWire();
    }
}
