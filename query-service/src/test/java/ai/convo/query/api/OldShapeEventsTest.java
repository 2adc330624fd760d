package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.testing.RawEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * An event stored in an older shape reads in the current one on every path of the query service: a
 * FunctionUpdatedEvent written raw as revision 1 stored it (no revision, {@code disabled}) is projected (the function
 * row, its asOf past, the audit event), and served by the event log and the function's history as revision 2
 * ({@code isDisabled}), never in the old shape.
 */
class OldShapeEventsTest extends QueryTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() { };

    @Test
    @SuppressWarnings("unchecked")
    void aFunctionUpdatedEventStoredAsRevision1IsReadAsRevision2Everywhere() {
        // given: a function created today, then disabled by an event stored in revision 1's shape
        Caller caller = newOrganisation();
        Project project = project(caller, "Old shapes", 1000);
        String function = Ids.newId();
        append(function, new FunctionCreatedEvent(function, project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), "Send mail", "return 1;", false, caller.userId(), 2000));
        long position = RawEvents.appendFunctionUpdatedRevision1(dataSource, function, project.id(),
                caller.organisationId(), List.of("isDisabled"), "Send mail", "return 1;", true, caller.userId(), 3000);
        assertThat(jdbc.queryForObject("SELECT payload_revision FROM domain_event_entry WHERE global_index = ?",
                String.class, position)).isNull();

        // then the processors projected it: the row (read after the event) says disabled
        Map<String, Object> read = get(caller, "/v2.0/functions/" + function, position);
        assertThat(read).containsEntry("isDisabled", true).containsEntry("lastChanged", 3000);
        assertThat(jdbc.queryForObject("SELECT is_disabled FROM function_view WHERE id = ?", Boolean.class, function))
                .isTrue();

        // the event log serves it in the new shape, under its type and actor as the log processor read them
        List<Map<String, Object>> log = ndjson(caller, "?resourceType=function&resourceId=" + function, position);
        assertThat(log).extracting(e -> e.get("type")).containsExactly("FunctionCreated", "FunctionUpdated");
        Map<String, Object> updated = log.get(1);
        assertThat(updated.get("actor")).isEqualTo(caller.userId());
        assertThat((Map<String, Object>) updated.get("payload")).containsEntry("isDisabled", true)
                .containsEntry("changedFields", List.of("isDisabled")).doesNotContainKey("disabled");

        // asOf the old event's log position the function was disabled, before it enabled
        long logPosition = ((Number) updated.get("position")).longValue();
        assertThat(get(caller, "/v2.0/functions/" + function + "?asOf=" + logPosition, 0))
                .containsEntry("isDisabled", true);
        assertThat(get(caller, "/v2.0/functions/" + function + "?asOf=" + (logPosition - 1), 0))
                .containsEntry("isDisabled", false);

        // the function's history shows the new shape too
        List<Map<String, Object>> history = ListPages.items(get(caller, "/v2.0/functions/" + function + "/history",
                position));
        assertThat(history).extracting(e -> e.get("type")).containsExactly("FunctionCreated", "FunctionUpdated");
        assertThat((Map<String, Object>) history.get(1).get("payload")).containsEntry("isDisabled", true)
                .containsEntry("name", "Send mail").doesNotContainKey("disabled");
        assertThat(history.get(1).get("userReference")).isEqualTo(caller.userId());

        // and the audit event the log processor wrote for it names what changed in the new shape
        List<Map<String, Object>> audit = ListPages.items(get(caller,
                "/v2.0/auditevents?limit=100&resourceType=function", position));
        assertThat(audit).extracting(e -> e.get("type")).containsExactly("create", "patch");
        assertThat((Map<String, Object>) audit.get(1).get("payload")).containsEntry("isDisabled", true)
                .doesNotContainKey("disabled");

        // and a rebuild of the function and log projections reads it in the new shape too: identical tables
        Map<String, Object> rebuilt = awaitRebuild(requestRebuild(List.of("functions", "eventlog"), true));
        assertThat(rebuilt.get("status")).as("%s", rebuilt).isEqualTo("done");
        assertThat(rebuilt.get("identical")).isEqualTo(true);
        assertThat(jdbc.queryForObject("SELECT is_disabled FROM function_view WHERE id = ?", Boolean.class, function))
                .isTrue();
    }

    private Map<String, Object> get(Caller caller, String path, long position) {
        return http.get().uri(path).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk().expectBody(MAP).returnResult().getResponseBody();
    }

    private List<Map<String, Object>> ndjson(Caller caller, String query, long position) {
        String body = http.get().uri("/v2.0/eventlog" + query).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/x-ndjson")).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : body.trim().split("\n")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> event = JSON.readValue(line, Map.class);
            lines.add(event);
        }
        return lines;
    }
}
