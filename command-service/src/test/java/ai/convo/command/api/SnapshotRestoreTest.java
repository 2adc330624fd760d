package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskFailedException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * Snapshots captured and restored by the real task work on the real database (the way the task runner calls it):
 * the content, its hash, an end-to-end restore compared field by field, all-or-nothing on cancel.
 */
class SnapshotRestoreTest extends SnapshotWorkSupport {

    @Test
    @SuppressWarnings("unchecked")
    void givenAProject_whenASnapshotIsTaken_thenItsContentHoldsEveryResourceByReferenceId() throws Exception {
        // given
        Built built = buildProject("Snapshot content");
        // when
        String snapshotId = snapshot(built.projectId());
        // then
        Map<String, Object> content = contentOf(snapshotId);
        assertThat(hashOf(snapshotId)).matches("^[0-9a-f]{64}$");
        assertThat((List<Object>) content.get("locales")).hasSize(2);
        assertThat((List<Map<String, Object>>) content.get("tokens")).extracting(t -> t.get("label"))
                .containsExactlyInAnyOrder("greeting", "farewell");
        assertThat((List<Map<String, Object>>) content.get("functions")).extracting(f -> f.get("name"))
                .containsExactlyInAnyOrder("Send mail", "Disabled one");
        List<Map<String, Object>> flows = (List<Map<String, Object>>) content.get("flows");
        assertThat(flows).extracting(f -> f.get("name")).containsExactlyInAnyOrder("Main", "Empty flow");
        Map<String, Object> main = flows.stream().filter(f -> f.get("name").equals("Main")).findFirst().orElseThrow();
        List<Map<String, Object>> intents = (List<Map<String, Object>>) main.get("intents");
        Map<String, Object> order = intents.stream().filter(i -> i.get("name").equals("Order")).findFirst().orElseThrow();
        Map<String, Object> pizza = intents.stream().filter(i -> i.get("name").equals("Order pizza")).findFirst().orElseThrow();
        assertThat(pizza.get("parentReference")).isEqualTo(order.get("referenceId"));
        assertThat(pizza.get("rejectIntent")).isEqualTo(true);
        assertThat(order.get("data")).isEqualTo(Map.of("a", List.of(1, "x"), "b", 2));
        assertThat((List<Object>) order.get("sentences")).hasSize(2);
        List<Map<String, Object>> states = (List<Map<String, Object>>) main.get("states");
        Map<String, Object> start = states.stream().filter(s -> s.get("name").equals("Start")).findFirst().orElseThrow();
        assertThat(start).containsEntry("isDefault", true).containsEntry("type", "whitelist");
        assertThat((List<Object>) start.get("intentReferences"))
                .containsExactly(order.get("referenceId"), pizza.get("referenceId"));
        assertThat(content.toString()).doesNotContain(built.flowId()).doesNotContain(built.parentIntentId());
    }

    @Test
    void givenTwoSnapshotsOfAnUnchangedProject_thenTheirHashesAreEqual_andAChangeChangesIt() throws Exception {
        // given
        Built built = buildProject("Equal hashes");
        String first = snapshot(built.projectId());
        // when
        String second = snapshot(built.projectId());
        created(HttpMethod.PATCH, "/v2.0/functions/" + functionIdOf(built.projectId()), Map.of("code", "return 2;"));
        String third = snapshot(built.projectId());
        // then
        assertThat(hashOf(second)).isEqualTo(hashOf(first));
        assertThat(hashOf(third)).isNotEqualTo(hashOf(first));
    }

    @Test
    void givenAChangedProject_whenTheSnapshotIsRestored_thenTheProjectIsExactlyTheSnapshotAgain() throws Exception {
        // given: a snapshot, then changes of every kind
        Built built = buildProject("Restore in place");
        String snapshotId = snapshot(built.projectId());
        String p = built.projectId();
        created(HttpMethod.POST, "/v2.0/projects/" + p + "/snippets", Map.of("label", "new", "type", "custom", "script", "n"));
        send(HttpMethod.DELETE, "/v2.0/functions/" + functionIdOf(p), null).expectStatus().isNoContent();
        created(HttpMethod.PATCH, "/v2.0/flows/" + built.flowId() + "/intents/" + built.parentIntentId(),
                Map.of("name", "Renamed"));
        created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", p, "name", "Created since"));
        String french = id(createLocale(ADMIN_KEY, Map.of("projectId", p, "name", "French", "nluLanguage", "fr-FR")));
        created(HttpMethod.PATCH, "/v2.0/locales/" + french, Map.of("primary", true));
        created(HttpMethod.PATCH, "/v2.0/locales/" + built.germanId(), Map.of("name", "Deutsch"));
        assertThat(hashOf(snapshot(p))).isNotEqualTo(hashOf(snapshotId));

        // when
        restore(snapshotId, p);

        // then: field by field the snapshot's content; what the project still had keeps its _id (the flow, the
        // renamed intent, its child, the tokens), what was deleted since comes back with a new one (the function)
        assertSameContent(snapshot(p), snapshotId);
        assertThat(jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ?", String.class, p))
                .hasSize(2).contains(built.flowId());
        assertThat(jdbc.queryForList("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? ORDER BY name",
                String.class, built.flowId())).containsExactly(built.parentIntentId(), built.childIntentId());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_snapshot_function WHERE project_id = ?", Long.class, p))
                .isEqualTo(2);
        assertThat(jdbc.queryForList("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?", String.class, p))
                .containsExactlyInAnyOrder(built.primaryLocaleId(), built.germanId());
        // and the restored aggregates take ordinary commands again
        String flowId = jdbc.queryForObject("SELECT f.flow_id FROM cmd_flow_lookup f JOIN cmd_intent_lookup i "
                + "ON i.flow_id = f.flow_id WHERE f.project_id = ? LIMIT 1", String.class, p);
        String intentId = jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = 'Order'",
                String.class, flowId);
        created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents/" + intentId + "/sentences",
                Map.of("text", "One more", "localeId", built.germanId()));
        created(HttpMethod.PATCH, "/v2.0/locales/" + built.germanId(), Map.of("name", "Deutsch"));
        created(HttpMethod.POST, "/v2.0/projects/" + p + "/snippets", Map.of("label", "greeting2", "type", "custom", "script", "n"));
    }

    @Test
    void givenIntentsAndTokensThatSwappedNamesSinceTheSnapshot_whenRestored_thenEachGetsItsNameBackUnderItsOwnId()
            throws Exception {
        // given: a snapshot, then the two intents swap names, and so do the two tokens
        Built built = buildProject("Swapped names");
        String p = built.projectId();
        String snapshotId = snapshot(p);
        String intents = "/v2.0/flows/" + built.flowId() + "/intents/";
        created(HttpMethod.PATCH, intents + built.parentIntentId(), Map.of("name", "Swap"));
        created(HttpMethod.PATCH, intents + built.childIntentId(), Map.of("name", "Order"));
        created(HttpMethod.PATCH, intents + built.parentIntentId(), Map.of("name", "Order pizza"));
        List<Map<String, Object>> tokens = jdbc.queryForList("SELECT token_id, label FROM cmd_token_lookup "
                + "WHERE project_id = ? ORDER BY label", p);
        String farewell = (String) tokens.get(0).get("token_id");
        String greeting = (String) tokens.get(1).get("token_id");
        created(HttpMethod.PATCH, "/v2.0/projects/" + p + "/snippets/" + farewell, Map.of("label", "swap"));
        created(HttpMethod.PATCH, "/v2.0/projects/" + p + "/snippets/" + greeting, Map.of("label", "farewell"));
        created(HttpMethod.PATCH, "/v2.0/projects/" + p + "/snippets/" + farewell, Map.of("label", "greeting"));
        // when
        restore(snapshotId, p);
        // then
        assertSameContent(snapshot(p), snapshotId);
        assertThat(jdbc.queryForObject("SELECT name FROM cmd_intent_lookup WHERE intent_id = ?", String.class,
                built.parentIntentId())).isEqualTo("Order");
        assertThat(jdbc.queryForObject("SELECT name FROM cmd_intent_lookup WHERE intent_id = ?", String.class,
                built.childIntentId())).isEqualTo("Order pizza");
        assertThat(jdbc.queryForObject("SELECT label FROM cmd_token_lookup WHERE token_id = ?", String.class, farewell))
                .isEqualTo("farewell");
        assertThat(jdbc.queryForObject("SELECT label FROM cmd_token_lookup WHERE token_id = ?", String.class, greeting))
                .isEqualTo("greeting");
    }

    @Test
    void givenAnotherProjectOfTheOrganisation_whenTheSnapshotIsRestoredThere_thenItHoldsTheSameContent() throws Exception {
        // given
        Built source = buildProject("Restore source");
        String snapshotId = snapshot(source.projectId());
        Built target = buildProject("Restore target");
        // when
        restore(snapshotId, target.projectId());
        // then
        assertSameContent(snapshot(target.projectId()), snapshotId);
        assertThat(jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ?", String.class,
                source.projectId())).contains(source.flowId());
    }

    @Test
    void givenARestoreInProgress_whenItIsCancelled_thenTheProjectIsExactlyAsBefore() throws Exception {
        // given: a snapshot and a changed project
        Built built = buildProject("Cancelled restore");
        String snapshotId = snapshot(built.projectId());
        created(HttpMethod.POST, "/v2.0/projects/" + built.projectId() + "/snippets",
                Map.of("label", "kept", "type", "custom", "script", "k"));
        String before = snapshot(built.projectId());
        long events = eventCount();
        // when: the cancel is seen after the first chunk of events was appended (inside the transaction)
        RecordingTaskContext context = context(snapshotId, built.projectId()).cancelAfter(2);
        assertThatThrownBy(() -> work("restoreSnapshot").run(context)).isInstanceOf(TaskCancelledException.class);
        // then
        assertThat(eventCount()).isEqualTo(events);
        assertSameContent(snapshot(built.projectId()), before);
    }

    @Test
    void givenADeletedSnapshot_whenItIsRestored_thenTheTaskFailsAndNothingChanges() throws Exception {
        // given
        Built built = buildProject("Gone snapshot");
        long events = eventCount();
        // when / then
        assertThatThrownBy(() -> restore("0123456789abcdef01234567", built.projectId()))
                .isInstanceOf(TaskFailedException.class).hasMessageContaining("no longer exists");
        assertThat(eventCount()).isEqualTo(events);
    }

    @Test
    void givenACancelDuringCapture_whenTheSnapshotIsCreated_thenItIsAbandonedAndItsSlotFree() throws Exception {
        // given
        Built built = buildProject("Cancelled capture");
        ai.convo.contract.snapshot.SnapshotId id = ai.convo.contract.snapshot.SnapshotId.generate();
        commands.sendAndWait(new ai.convo.contract.snapshot.RequestSnapshotCommand(
                ai.convo.contract.snapshot.SnapshotRegistryId.of(built.projectId()), id,
                ai.convo.contract.task.TaskId.generate(), "Cancelled", "", admin(), 1L));
        // when
        RecordingTaskContext context = new RecordingTaskContext(built.projectId(), Map.of("snapshotId", id.value()),
                admin()).cancelAfter(0);
        assertThatThrownBy(() -> work("createSnapshot").run(context)).isInstanceOf(TaskCancelledException.class);
        // then
        assertThat(jdbc.queryForList("SELECT snapshot_id FROM cmd_snapshot WHERE snapshot_id = ?", String.class,
                id.value())).isEmpty();
        assertThat(jdbc.queryForList("SELECT snapshot_id FROM cmd_snapshot_content WHERE snapshot_id = ?",
                String.class, id.value())).isEmpty();
    }

    private String functionIdOf(String projectId) {
        return jdbc.queryForList("SELECT function_id FROM cmd_snapshot_function WHERE project_id = ? ORDER BY function_id",
                String.class, projectId).get(0);
    }
}
