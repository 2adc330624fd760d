package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event log serves payloads in their current shape: an event stored in an older shape (revision "0", its actor
 * field still called removedBy) comes out of GET /v2.0/eventlog as the upcaster chain makes it ({@link OldShapes}),
 * the chain the processors use too (they project it like any other).
 */
class EventLogUpcastingTest extends QueryTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String TYPE = OldShapes.FUNCTION_DELETED;

    @Test
    void anEventStoredInAnOlderShapeIsServedInTheCurrentOne() {
        Caller caller = newOrganisation();
        String function = Ids.newId();
        String old = "{\"functionId\":\"" + function + "\",\"projectId\":\"" + Ids.newId() + "\",\"organisationId\":\""
                + caller.organisationId() + "\",\"removedBy\":\"" + caller.userId() + "\",\"deletedAt\":1700000000}";
        jdbc.update("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type, "
                        + "time_stamp, payload_type, payload_revision, payload, meta_data) VALUES (?, ?, 0, 'FunctionAggregate', "
                        + "?, ?, '0', ?, ?)", UUID.randomUUID().toString(), function, java.time.Instant.now().toString(), TYPE,
                old.getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8));
        Long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);

        String body = http.get().uri("/v2.0/eventlog").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/x-ndjson")).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        @SuppressWarnings("unchecked")
        Map<String, Object> event = JSON.readValue(body.trim(), Map.class);
        assertThat(event.get("type")).isEqualTo("FunctionDeleted");
        assertThat((Map<String, Object>) event.get("payload")).as(body).containsEntry("deletedBy", caller.userId())
                .doesNotContainKey("removedBy");
        assertThat(event.get("actor")).isEqualTo(caller.userId()); // the processor read the upcast shape as well
        assertThat(body.trim().split("\n")).hasSize(1);
        assertThat(List.of(body)).allSatisfy(b -> assertThat(b).doesNotContain("removedBy"));
    }
}
