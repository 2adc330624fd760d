package ai.convo.query.deadletter;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The parked sequences (system administrators only), each with its processing group, sequence id, first event
 * (where it stopped: id, type, position, trace id, organisation), cause, size and attempts; and the retries and
 * evictions asked for (POST on the command service) with what became of them, and the audit trail (parked,
 * applied, still parked, evicted, rebuilt; who asked). Read from the primary.
 */
@RestController
class DeadLetterController {

    private final JdbcTemplate jdbc;

    DeadLetterController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @GetMapping("/management/v2.0/projections/deadletters")
    Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = negotiate(exchange, caller);
        return Mono.fromCallable(() -> {
            List<Map<String, Object>> sequences = jdbc.query("SELECT d.processing_group, d.sequence_identifier, "
                    + "d.event_identifier, d.payload_type, d.payload, d.meta_data, d.cause_type, d.cause_message, "
                    + "d.enqueued_at, d.last_touched, d.diagnostics, e.global_index, (SELECT count(*) FROM "
                    + "dead_letter_entry c WHERE c.processing_group = d.processing_group AND c.sequence_identifier = "
                    + "d.sequence_identifier) AS letters FROM dead_letter_entry d LEFT JOIN domain_event_entry e ON "
                    + "e.event_identifier = d.event_identifier WHERE d.sequence_index = (SELECT min(f.sequence_index) "
                    + "FROM dead_letter_entry f WHERE f.processing_group = d.processing_group "
                    + "AND f.sequence_identifier = d.sequence_identifier) ORDER BY d.enqueued_at, d.processing_group",
                    (rs, i) -> {
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("processingGroup", rs.getString("processing_group"));
                        row.put("sequenceId", rs.getString("sequence_identifier"));
                        row.put("events", rs.getLong("letters"));
                        Map<String, Object> event = new LinkedHashMap<>();
                        event.put("eventId", rs.getString("event_identifier"));
                        event.put("type", rs.getString("payload_type"));
                        event.put("position", rs.getObject("global_index"));
                        byte[] metaData = rs.getBytes("meta_data");
                        String trace = ParkedSequences.field(metaData, "traceId");
                        trace = trace != null ? trace : ParkedSequences.field(metaData, "correlationId");
                        event.put("traceId", trace != null ? trace : rs.getString("event_identifier"));
                        event.put("organisationId", ParkedSequences.field(rs.getBytes("payload"), "organisationId"));
                        row.put("firstEvent", event);
                        row.put("cause", Map.of("type", String.valueOf(rs.getString("cause_type")),
                                "message", String.valueOf(rs.getString("cause_message"))));
                        row.put("parkedAt", rs.getString("enqueued_at"));
                        row.put("lastAttemptAt", rs.getString("last_touched"));
                        String retries = ParkedSequences.field(rs.getBytes("diagnostics"), ParkingPolicy.RETRIES);
                        row.put("retries", retries == null ? 0 : Long.parseLong(retries));
                        return row;
                    });
            List<Map<String, Object>> requests = jdbc.query("SELECT * FROM dead_letter_request ORDER BY requested_at "
                    + "DESC LIMIT 20", (rs, i) -> request(rs));
            List<Map<String, Object>> history = jdbc.query("SELECT * FROM dead_letter_audit ORDER BY id DESC LIMIT 50",
                    (rs, i) -> {
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("happened", rs.getString("happened"));
                        row.put("processingGroup", rs.getString("processing_group"));
                        row.put("sequenceId", rs.getString("sequence_identifier"));
                        row.put("organisationId", rs.getString("organisation_id"));
                        row.put("traceId", rs.getString("trace_id"));
                        row.put("eventPosition", rs.getObject("event_position"));
                        row.put("detail", rs.getString("detail"));
                        row.put("actor", rs.getString("actor"));
                        row.put("occurredAt", instant(rs.getTimestamp("occurred_at")));
                        return row;
                    });
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("sequences", sequences);
            body.put("requests", requests);
            body.put("history", history);
            return ApiResponses.ok(exchange, media, new Representation.Single("deadletters", body));
        }).subscribeOn(Schedulers.boundedElastic());
    }

    @GetMapping("/management/v2.0/projections/deadletters/requests/{requestId}")
    Mono<ResponseEntity<byte[]>> request(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                         @PathVariable String requestId) {
        ApiMedia media = negotiate(exchange, caller);
        QueryParams.pathId("requestId", requestId);
        return Mono.fromCallable(() -> {
            List<Map<String, Object>> found = jdbc.query("SELECT * FROM dead_letter_request WHERE id = ?",
                    (rs, i) -> request(rs), requestId);
            if (found.isEmpty()) {
                throw ApiProblem.notFound("Dead-letter request " + requestId + " does not exist.");
            }
            return ApiResponses.ok(exchange, media, new Representation.Single("request", found.get(0)));
        }).subscribeOn(Schedulers.boundedElastic());
    }

    private static Map<String, Object> request(java.sql.ResultSet rs) throws java.sql.SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("_id", rs.getString("id"));
        row.put("action", rs.getString("action"));
        row.put("processingGroup", rs.getString("processing_group"));
        row.put("sequenceId", rs.getString("sequence_identifier"));
        row.put("status", rs.getString("status"));
        row.put("outcome", rs.getString("outcome"));
        row.put("requestedBy", rs.getString("requested_by"));
        row.put("requestedAt", instant(rs.getTimestamp("requested_at")));
        row.put("finishedAt", instant(rs.getTimestamp("finished_at")));
        return row;
    }

    private static String instant(java.sql.Timestamp at) {
        return at == null ? null : at.toInstant().toString();
    }

    private static ApiMedia negotiate(ServerWebExchange exchange, ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        if (!caller.isSystemAdmin()) {
            throw ApiProblem.forbidden("Only a system administrator can see and retry parked projection events.");
        }
        return media;
    }
}
