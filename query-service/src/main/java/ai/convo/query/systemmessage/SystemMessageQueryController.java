package ai.convo.query.systemmessage;

import ai.convo.contract.systemmessage.SystemMessageRecord;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.persistence.PrincipalKeys;
import ai.convo.query.consistency.ReadYourWrites;
import java.util.List;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import ai.convo.query.readmodel.ReadModel;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The current System message, for everyone (no authentication: it is shown before login). */
@RestController
class SystemMessageQueryController {

    private final DatabaseClient db;
    private final ReadYourWrites consistency;

    public SystemMessageQueryController(@ReadModel DatabaseClient db, ReadYourWrites consistency) {
        this.db = db;
        this.consistency = consistency;
    }

    /** The newest message (by createdAt, then id) whose until is still in the future; 404 when there is none. */
    @GetMapping("/v2.0/system/message")
    public Mono<ResponseEntity<byte[]>> current(ServerWebExchange exchange) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ai.convo.query.web.AsOf.refuse(exchange, "the current system message keeps no history.");
        return consistency.await(exchange, List.of(PrincipalKeys.SYSTEM_MESSAGE))
                .then(Mono.defer(() -> db.sql("SELECT * FROM system_message_view WHERE until > :now "
                                + "ORDER BY created_at DESC, id DESC LIMIT 1")
                        .bind("now", Instant.now().getEpochSecond())
                        .map(SystemMessageQueryController::wire).one()))
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("There is no current system message: none was "
                        + "created, or every one's until has passed.")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("systemMessage", record)));
    }

    static Map<String, Object> wire(Readable row) {
        return new SystemMessageRecord(row.get("id", String.class), row.get("message", String.class),
                row.get("until", Long.class), Boolean.TRUE.equals(row.get("show_on_login", Boolean.class)),
                row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class)).toWire();
    }
}
