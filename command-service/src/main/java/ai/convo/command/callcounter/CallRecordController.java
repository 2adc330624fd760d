package ai.convo.command.callcounter;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.callcounter.CallCounterRules;
import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordBatchId;
import ai.convo.contract.callcounter.CallRecordsIngestion;
import ai.convo.contract.callcounter.IngestCallRecordsCommand;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.identity.Role;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Call records in: {@code POST /management/v2.0/callrecords} with {@code {organisationId?, records: [...]}}.
 * A system administrator may name any organisation; an organisation administrator sends records of their own
 * organisation only; members may not send records. A batch is all or nothing: one bad record is a 400 that
 * lists every bad record by index, and nothing is stored.
 */
@RestController
class CallRecordController {

    static final Set<String> BODY_FIELDS = Set.of("organisationId", "records");
    static final Set<String> RECORD_FIELDS = Set.of("callId", "projectId", "startedAt", "endedAt", "billable");
    private static final String RECORD_SHAPE = "an object {callId, projectId, startedAt, endedAt, billable}";

    private final Commands commands;
    private final CallRecordLookups lookups;

    public CallRecordController(Commands commands, CallRecordLookups lookups) {
        this.commands = commands;
        this.lookups = lookups;
    }

    @PostMapping("/management/v2.0/callrecords")
    public Mono<ResponseEntity<byte[]>> ingest(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        if (!caller.isSystemAdmin() && caller.role() != Role.ORG_ADMIN) {
            throw DomainException.forbidden("Only an organisation administrator (for their own organisation) or a "
                    + "system administrator can send call records.");
        }
        // Parsing and checking 10,000 records is real work: done off the event loop, like the command itself.
        return commands.blocking(() -> prepare(exchange, caller, raw))
                .flatMap(command -> commands.<CallRecordsIngestion>send(command, command.batchId().value()))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("callRecordBatch", sent.result().toWire()), null, sent.position()));
    }

    private IngestCallRecordsCommand prepare(ServerWebExchange exchange, ApiPrincipal caller, byte[] raw) {
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(BODY_FIELDS);
        String named = body.optionalId("organisationId");
        body.validate();
        String organisationId = named == null ? caller.organisationId() : named;
        if (!organisationId.equals(caller.organisationId())) {
            if (!caller.isSystemAdmin()) {
                throw DomainException.forbidden("Only a system administrator can send call records for another "
                        + "organisation; leave organisationId out to send records of your own.");
            }
            if (!lookups.organisationExists(organisationId)) {
                throw DomainException.notFound("Organisation " + organisationId + " does not exist.");
            }
        }
        JsonNode records = Renderer.JSON.readTree(raw).get("records");
        CallRecordProblems problems = new CallRecordProblems();
        if (records == null || records.isNull()) {
            problems.batch("records", "is required: an array of 1 to " + CallCounterRules.MAX_BATCH + " call records, "
                    + "each " + RECORD_SHAPE);
            throw problems.toException(0);
        }
        if (!records.isArray()) {
            problems.batch("records", "must be an array of 1 to " + CallCounterRules.MAX_BATCH + " call records");
            throw problems.toException(0);
        }
        CallRecordProblems.checkSize(records.size(), problems);
        if (!problems.isEmpty()) {
            throw problems.toException(records.size());
        }
        List<CallRecord> parsed = new ArrayList<>(records.size());
        Map<Integer, CallRecord> wellFormed = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            CallRecord record = parse(i, records.get(i), problems);
            parsed.add(record);
            if (record != null) {
                CallRecordProblems.checkRecord(i, record, problems);
                wellFormed.put(i, record);
            }
        }
        if (!problems.isEmpty()) {
            // One answer names every problem: the projects of the well-formed records are checked as well.
            Set<String> projectIds = new HashSet<>();
            wellFormed.values().forEach(r -> {
                if (Ids.isValid(r.projectId())) {
                    projectIds.add(r.projectId());
                }
            });
            CallRecordProblems.checkProjects(wellFormed, organisationId, lookups.ownersOf(projectIds), problems);
            throw problems.toException(records.size());
        }
        return new IngestCallRecordsCommand(CallRecordBatchId.generate(), organisationId, caller.actor(), parsed,
                Clock.nowSeconds());
    }

    /** A record with every field present and of the right type, or null (and its problems recorded). */
    static CallRecord parse(int index, JsonNode node, CallRecordProblems problems) {
        if (node == null || !node.isObject()) {
            problems.record(index, "", "must be " + RECORD_SHAPE);
            return null;
        }
        for (String name : node.propertyNames()) {
            if (!RECORD_FIELDS.contains(name)) {
                problems.record(index, name, "unknown field; allowed: " + String.join(", ", new TreeSet<>(RECORD_FIELDS)));
            }
        }
        String callId = text(index, node, "callId", "a string of 1 to " + CallCounterRules.MAX_CALL_ID_LENGTH
                + " characters", problems);
        String projectId = text(index, node, "projectId", "an id of 24 characters [a-z0-9]", problems);
        Long startedAt = time(index, node, "startedAt", problems);
        Long endedAt = time(index, node, "endedAt", problems);
        Boolean billable = flag(index, node, "billable", problems);
        if (problems.hasRecord(index)) {
            return null;
        }
        return new CallRecord(callId, projectId, startedAt, endedAt, billable);
    }

    private static String text(int index, JsonNode record, String field, String rule, CallRecordProblems problems) {
        JsonNode value = record.get(field);
        if (value == null || value.isNull()) {
            problems.record(index, field, "is required: " + rule);
            return null;
        }
        if (!value.isString()) {
            problems.record(index, field, "must be " + rule + "; got " + kind(value));
            return null;
        }
        return value.stringValue();
    }

    private static Long time(int index, JsonNode record, String field, CallRecordProblems problems) {
        JsonNode value = record.get(field);
        if (value == null || value.isNull()) {
            problems.record(index, field, "is required: " + CallRecordProblems.TIME_RULE);
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            problems.record(index, field, "must be " + CallRecordProblems.TIME_RULE + "; got " + kind(value));
            return null;
        }
        return value.longValue();
    }

    private static Boolean flag(int index, JsonNode record, String field, CallRecordProblems problems) {
        JsonNode value = record.get(field);
        if (value == null || value.isNull()) {
            problems.record(index, field, "is required: true or false");
            return null;
        }
        if (!value.isBoolean()) {
            problems.record(index, field, "must be true or false; got " + kind(value));
            return null;
        }
        return value.booleanValue();
    }

    private static String kind(JsonNode node) {
        if (node.isString()) {
            String text = node.stringValue();
            return "'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'";
        }
        if (node.isBoolean() || node.isNumber()) {
            return node.toString();
        }
        return node.isArray() ? "an array" : "an object";
    }
}
