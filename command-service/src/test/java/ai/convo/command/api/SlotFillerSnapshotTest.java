package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * Snapshots hold slot fillers (as the vendor's do): a capture keeps each with its settings under its flow, a restore
 * brings them back (kept ones keep their ids, changed ones are changed back, deleted ones are created again, new ones
 * are deleted), and a snapshot without slot fillers has the bytes it always had.
 */
class SlotFillerSnapshotTest extends SnapshotWorkSupport {

    @Test
    @SuppressWarnings("unchecked")
    void givenAFlowWithSlotFillers_whenSnapshottedChangedAndRestored_thenTheSlotFillersAreTheSnapshots()
            throws Exception {
        // given
        Built built = buildProject("Slot filler snapshot");
        String fillers = "/v2.0/flows/" + built.flowId() + "/slotfillers";
        String zip = id(created(HttpMethod.POST, fillers, Map.of("name", "Zip", "type", "regex",
                "regex", "^[0-9]{5}$", "contextKey", "zip")));
        String city = id(created(HttpMethod.POST, fillers, Map.of("name", "City", "type", "slot", "slot", "DE-CITY")));
        String before = snapshot(built.projectId());
        Map<String, Object> flow = ((List<Map<String, Object>>) contentOf(before).get("flows")).stream()
                .filter(f -> "Main".equals(f.get("name"))).findFirst().orElseThrow();
        assertThat((List<Map<String, Object>>) flow.get("slotFillers")).extracting(f -> ((Map<String, Object>)
                f.get("settings")).get("name")).containsExactlyInAnyOrder("Zip", "City");
        // when: one changed, one deleted, one added
        created(HttpMethod.PATCH, fillers + "/" + zip, Map.of("type", "number"));
        send(HttpMethod.DELETE, fillers + "/" + city, null).expectStatus().isNoContent();
        String added = id(created(HttpMethod.POST, fillers, Map.of("name", "Mail", "type", "email")));
        restore(before, built.projectId());
        // then
        assertSameContent(snapshot(built.projectId()), before);
        send(HttpMethod.PATCH, fillers + "/" + zip, Map.of()).expectStatus().isOk().expectBody()
                .jsonPath("$.type").isEqualTo("regex").jsonPath("$.regex").isEqualTo("^[0-9]{5}$");
        send(HttpMethod.PATCH, fillers + "/" + added, Map.of("name", "X")).expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_slot_filler_lookup WHERE flow_id = ?", Long.class,
                built.flowId())).isEqualTo(2);
    }

    @Test
    void givenASnapshotWithSlotFillers_whenRestoredIntoAnotherProject_thenTheyAreCreatedThere() throws Exception {
        // given
        Built source = buildProject("Slot filler source");
        created(HttpMethod.POST, "/v2.0/flows/" + source.flowId() + "/slotfillers",
                Map.of("name", "Age", "type", "age"));
        String snapshot = snapshot(source.projectId());
        Map<String, Object> target = createProject(ADMIN_KEY, "Slot filler target", "en-US");
        // when
        restore(snapshot, id(target));
        // then
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_slot_filler_lookup WHERE project_id = ?", Long.class,
                id(target))).isEqualTo(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAProjectWithoutSlotFillers_whenSnapshotted_thenItsFlowsCarryNoSlotFillerField() throws Exception {
        Built built = buildProject("No slot fillers");
        String snapshot = snapshot(built.projectId());
        assertThat((List<Map<String, Object>>) contentOf(snapshot).get("flows"))
                .allSatisfy(flow -> assertThat(flow).doesNotContainKey("slotFillers"));
    }
}
