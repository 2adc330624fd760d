package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Actor;
import ai.convo.testing.RawEvents;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * An event stored in an older shape loads in the current one on the write side: a function whose history holds a
 * FunctionUpdatedEvent written raw as revision 1 stored it (no revision, {@code disabled}) loads with it as
 * {@code isDisabled}, so the next command works on the value it had; a snapshot's capture, which reads the store's
 * rows itself, sees it too. New events of the type are stored as revision 2.
 */
class OldShapeEventsApiTest extends SnapshotWorkSupport {

    @Test
    @SuppressWarnings("unchecked")
    void aFunctionWhoseHistoryHoldsARevision1UpdateLoadsWithItsValue() throws Exception {
        // given: a function created through the API, then disabled by an event stored in revision 1's shape
        Actor admin = admin();
        String projectId = id(createProject(ADMIN_KEY, "Old shapes " + UUID.randomUUID(), "en-US"));
        String function = id(created(HttpMethod.POST, "/v2.0/functions",
                Map.of("projectId", projectId, "name", "Send mail", "code", "return 1;")));
        RawEvents.appendFunctionUpdatedRevision1(dataSource, function, projectId, admin.organisationId(),
                List.of("isDisabled"), "Send mail", "return 1;", true, admin.userId(), 1_700_000_100L);
        long before = eventCount();

        // when the PATCH disables it: the aggregate loaded it disabled, so nothing changes
        Map<String, Object> unchanged = created(HttpMethod.PATCH, "/v2.0/functions/" + function,
                Map.of("isDisabled", true));

        // then
        assertThat(unchanged).containsEntry("isDisabled", true).containsEntry("lastChanged", 1_700_000_100);
        assertThat(eventCount()).isEqualTo(before);

        // a snapshot's capture folds the old event in its new shape too
        String snapshot = snapshot(projectId);
        List<Map<String, Object>> functions = (List<Map<String, Object>>) contentOf(snapshot).get("functions");
        assertThat(functions).singleElement().satisfies(f -> assertThat(f).containsEntry("name", "Send mail")
                .containsEntry("disabled", true));

        // and the next change keeps it disabled, stored as revision 2 with isDisabled
        Map<String, Object> renamed = created(HttpMethod.PATCH, "/v2.0/functions/" + function,
                Map.of("name", "Send SMS"));
        assertThat(renamed).containsEntry("name", "Send SMS").containsEntry("isDisabled", true);
        Map<String, Object> stored = jdbc.queryForMap("SELECT payload_revision, payload FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? ORDER BY sequence_number DESC LIMIT 1", function);
        assertThat(stored.get("payload_revision")).isEqualTo("2");
        assertThat(new String((byte[]) stored.get("payload"), StandardCharsets.UTF_8))
                .contains("\"changedFields\":[\"name\"]", "\"isDisabled\":true").doesNotContain("\"disabled\"");
    }
}
