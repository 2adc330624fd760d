package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowSettingsUpdatedEvent;
import ai.convo.contract.project.ProjectSettingsUpdatedEvent;
import ai.convo.contract.settings.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** readProjectSettings and readFlowSettings: GET /v2.0/projects/{id}/settings and /v2.0/flows/{id}/settings. */
class SettingsReadTest extends QueryTestBase {

    @SuppressWarnings("unchecked")
    private Map<String, Object> read(Caller caller, String uri, long position) {
        return http.get().uri(uri).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @Test
    void givenANewProject_whenItsSettingsAreRead_thenEverySettingAtItsDefaultDatedFromTheProjectsCreation() {
        // given
        Caller caller = newOrganisation();
        Project project = project(caller, "Defaults", 1000);
        // when
        Map<String, Object> settings = read(caller, "/v2.0/projects/" + project.id() + "/settings", project.position());
        // then
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("_id", project.id());
        expected.putAll(Settings.PROJECT.render(Map.of()));
        expected.put("createdAt", 1000);
        expected.put("lastChanged", 1000);
        expected.put("createdBy", caller.userId());
        expected.put("lastChangedBy", caller.userId());
        assertThat(settings.keySet()).containsExactlyElementsOf(expected.keySet());
        assertThat(settings).containsEntry("timezone", "UTC").containsEntry("lastChanged", 1000)
                .containsEntry("intentThreshold", Map.of("lower", 0.4, "upper", 0.6));
    }

    @Test
    void givenChangedProjectSettings_whenRead_thenTheChangesOverTheDefaultsAndOthersGet404() {
        // given
        Caller caller = newOrganisation();
        Caller editor = colleague(caller);
        Project project = project(caller, "Changed", 1000);
        append(project.id(), new ProjectSettingsUpdatedEvent(project.id(), caller.organisationId(),
                Map.of("timezone", "Asia/Tokyo", "translationSettings.connections.google.retries", 4.0), editor.userId(),
                2000));
        long position = append(project.id(), new ProjectSettingsUpdatedEvent(project.id(), caller.organisationId(),
                Map.of("positiveConfirmationWords", List.of("hai")), caller.userId(), 3000));
        // when
        Map<String, Object> settings = read(caller, "/v2.0/projects/" + project.id() + "/settings", position);
        // then: both changes, whole numbers whole, dated from the last change
        assertThat(settings).containsEntry("timezone", "Asia/Tokyo")
                .containsEntry("positiveConfirmationWords", List.of("hai"))
                .containsEntry("lastChanged", 3000).containsEntry("lastChangedBy", caller.userId())
                .containsEntry("createdAt", 1000);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Map<String, Object>>> translation =
                (Map<String, Map<String, Map<String, Object>>>) settings.get("translationSettings");
        assertThat(translation.get("connections").get("google")).containsEntry("retries", 4);
        http.get().uri("/v2.0/projects/{id}/settings", project.id()).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/projects/{id}/settings", Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
    }

    @Test
    void givenChangedFlowSettings_whenRead_thenTheChangesAndTheLocaleSettingsAsAList() {
        // given
        Caller caller = newOrganisation();
        Project project = project(caller, "Flows", 1000);
        String flowId = Ids.newId();
        append(flowId, new FlowCreatedEvent(flowId, project.id(), caller.organisationId(), UUID.randomUUID().toString(),
                "Main", "", caller.userId(), 1100));
        long position = append(flowId, new FlowSettingsUpdatedEvent(flowId, project.id(), caller.organisationId(),
                Map.of("implicitSlotParsing", "lexicon"), Map.of(project.primaryLocaleId(), true), caller.userId(), 1200));
        // when
        Map<String, Object> settings = read(caller, "/v2.0/flows/" + flowId + "/settings", position);
        // then
        assertThat(settings).containsEntry("_id", flowId).containsEntry("implicitSlotParsing", "lexicon")
                .containsEntry("flowIntentMappingOrder", "joint")
                .containsEntry("localeSettings", List.of(Map.of("localeReference", project.primaryLocaleId(),
                        "inheritFallbackLocaleModel", true)))
                .containsEntry("createdAt", 1100).containsEntry("lastChanged", 1200)
                .doesNotContainKey("timezone");
        http.get().uri("/v2.0/flows/{id}/settings", flowId).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound();
    }
}
