package ai.convo.command.deadletter;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A system administrator's retry or eviction of a parked projection sequence (issue 37): 202 with the request, which
 * a query replica takes within a second, does (the processors are there) and records the outcome of; the request's
 * state is at the Location (GET on the query service). A sequence nothing is parked under is a 404.
 */
@RestController
class DeadLetterRequestController {

    private static final Set<String> FIELDS = Set.of("processingGroup", "sequenceId");
    private static final Set<String> ACTIONS = Set.of("retry", "evict");

    private final JdbcTemplate jdbc;

    DeadLetterRequestController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @PostMapping("/management/v2.0/projections/deadletters/{action}")
    Mono<ResponseEntity<byte[]>> request(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                         @PathVariable String action, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        if (!caller.isSystemAdmin()) {
            throw DomainException.forbidden("Only a system administrator can retry or evict parked projection events.");
        }
        if (!ACTIONS.contains(action)) {
            throw DomainException.notFound("There is no dead-letter action '" + action + "'; use retry or evict.");
        }
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(FIELDS);
        String group = body.requiredString("processingGroup", 1, 255);
        String sequence = body.requiredString("sequenceId", 1, 255);
        body.validate();
        return Mono.fromCallable(() -> {
            Boolean parked = jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM dead_letter_entry WHERE "
                    + "processing_group = ? AND sequence_identifier = ?)", Boolean.class, group, sequence);
            if (!Boolean.TRUE.equals(parked)) {
                throw DomainException.notFound("Nothing is parked in processing group '" + group + "' under sequence '"
                        + sequence + "' (GET /management/v2.0/projections/deadletters lists what is).");
            }
            String id = Ids.newId();
            jdbc.update("INSERT INTO dead_letter_request (id, action, processing_group, sequence_identifier, "
                    + "requested_by) VALUES (?, ?, ?, ?, ?)", id, action, group, sequence, caller.userId());
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("_id", id);
            request.put("action", action);
            request.put("processingGroup", group);
            request.put("sequenceId", sequence);
            request.put("status", "requested");
            // the base path: the request path up to its management segment
            String path = exchange.getRequest().getPath().value();
            String base = path.substring(0, Math.max(0, path.indexOf("/management/")));
            return ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                    new Representation.Single("request", request),
                    base + "/management/v2.0/projections/deadletters/requests/" + id, null);
        }).subscribeOn(Schedulers.boundedElastic());
    }
}
