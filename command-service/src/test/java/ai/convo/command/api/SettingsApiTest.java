package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.settings.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * The official client's updateProjectSettings and updateFlowSettings over real HTTP: PATCH
 * /v2.0/projects/{id}/settings and /v2.0/flows/{id}/settings, nested partial bodies, every mistake named by its path.
 */
class SettingsApiTest extends FlowApiSupport {

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> document, String path) {
        Object value = document;
        for (String name : path.split("\\.")) {
            value = ((Map<String, Object>) value).get(name);
        }
        return (T) value;
    }

    @Test
    void givenAProject_whenPartOfItsSettingsIsPatched_then200WithEverySettingAndTheChangedOnesSet() {
        // given
        Map<String, Object> project = createProject(ADMIN_KEY, "Settings " + UUID.randomUUID(), "en-US");
        String projectId = (String) project.get("_id");
        // when
        Map<String, Object> settings = json(send("PATCH", "/v2.0/projects/" + projectId + "/settings", ADMIN_KEY,
                Map.of("timezone", "Europe/Berlin",
                        "intentThreshold", Map.of("upper", 0.8),
                        "translationSettings", Map.of("provider", "deepl", "connections",
                                Map.of("deepl", Map.of("retries", 3, "customBaseUrl", "https://deepl.example.com"))),
                        "currencySettings", Map.of("currency", "EUR"))), 200);
        // then
        assertThat(settings.keySet()).startsWith("_id").endsWith("createdAt", "lastChanged", "createdBy", "lastChangedBy")
                .containsAll(Settings.PROJECT.render(Map.of()).keySet());
        assertThat(settings).containsEntry("_id", projectId).containsEntry("timezone", "Europe/Berlin")
                .containsEntry("createdAt", project.get("createdAt")).containsEntry("lastChangedBy", adminUserId());
        assertThat((Map<String, Object>) at(settings, "intentThreshold")).isEqualTo(Map.of("lower", 0.4, "upper", 0.8));
        assertThat((Map<String, Object>) at(settings, "translationSettings.connections.deepl"))
                .containsEntry("retries", 3).containsEntry("timeout", 5000)
                .containsEntry("customBaseUrl", "https://deepl.example.com");
        assertThat((String) at(settings, "translationSettings.provider")).isEqualTo("deepl");
        assertThat((String) at(settings, "currencySettings.currency")).isEqualTo("EUR");
        // and a second PATCH keeps what the first set
        Map<String, Object> again = json(send("PATCH", "/v2.0/projects/" + projectId + "/settings", ADMIN_KEY,
                Map.of("collectAnalytics", false)), 200);
        assertThat(again).containsEntry("timezone", "Europe/Berlin").containsEntry("collectAnalytics", false);
    }

    @Test
    void givenAProject_whenItsSettingsArePatchedWrongly_then400NamingEveryPathAndNothingIsStored() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "Wrong " + UUID.randomUUID(), "en-US").get("_id");
        long before = eventCount();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("timezone", "Atlantis/Capital");
        body.put("intentThreshold", Map.of("lower", "low"));
        body.put("generativeAISettings", Map.of("useCasesSettings", Map.of("chess", Map.of())));
        body.put("colour", "red");
        // when
        Map<String, Object> problem = json(send("PATCH", "/v2.0/projects/" + projectId + "/settings", ADMIN_KEY, body), 400);
        // then
        assertThat((Map<String, Object>) problem.get("details")).containsOnlyKeys("timezone", "intentThreshold.lower",
                "generativeAISettings.useCasesSettings.chess", "colour");
        assertThat((String) problem.get("detail")).contains("an IANA time zone", "answerExtraction", "allowed are:");
        // crossing thresholds is refused by the write model
        Map<String, Object> crossed = json(send("PATCH", "/v2.0/projects/" + projectId + "/settings", ADMIN_KEY,
                Map.of("intentThreshold", Map.of("lower", 0.9, "upper", 0.1))), 400);
        assertThat((Map<String, Object>) crossed.get("details")).containsKey("intentThreshold");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAProjectOfAnotherOrganisation_whenItsSettingsArePatched_then404AndNothingIsStored() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "Private " + UUID.randomUUID(), "en-US").get("_id");
        String stranger = otherOrganisationKey("settings-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        send("PATCH", "/v2.0/projects/" + projectId + "/settings", stranger, Map.of("collectAnalytics", false))
                .expectStatus().isNotFound();
        send("PATCH", "/v2.0/projects/not-an-id/settings", ADMIN_KEY, Map.of()).expectStatus().isBadRequest();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAFlow_whenItsSettingsAndALocaleSettingArePatched_then200WithThemAndTheLocaleListed() {
        // given
        Map<String, Object> flow = newFlow("Settings flow " + UUID.randomUUID());
        String flowId = (String) flow.get("_id");
        String localeId = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?", String.class,
                flow.get("projectReference"));
        // when: localeSettings as the client sends it, one object
        Map<String, Object> settings = json(send("PATCH", "/v2.0/flows/" + flowId + "/settings", ADMIN_KEY,
                Map.of("flowIntentMappingOrder", "attached", "systemSlots", Map.of("useAgeSlots", false),
                        "localeSettings", Map.of("localeReference", localeId, "inheritFallbackLocaleModel", true))), 200);
        // then: as a read shows it, a list
        assertThat(settings).containsEntry("_id", flowId).containsEntry("flowIntentMappingOrder", "attached")
                .containsEntry("localeSettings", List.of(Map.of("localeReference", localeId,
                        "inheritFallbackLocaleModel", true)))
                .doesNotContainKey("timezone");
        assertThat((Boolean) at(settings, "systemSlots.useAgeSlots")).isFalse();
        // and the whole read sent back changes nothing and is accepted
        long before = eventCount();
        send("PATCH", "/v2.0/flows/" + flowId + "/settings", ADMIN_KEY, settings).expectStatus().isOk();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAFlow_whenALocaleOfAnotherProjectOrAMalformedLocaleSettingIsSent_then400AndNothingIsStored() {
        // given
        String flowId = (String) newFlow("Locale settings " + UUID.randomUUID()).get("_id");
        String otherProject = (String) createProject(ADMIN_KEY, "Other " + UUID.randomUUID(), "de-DE").get("_id");
        String foreignLocale = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?",
                String.class, otherProject);
        long before = eventCount();
        // when / then
        Map<String, Object> foreign = json(send("PATCH", "/v2.0/flows/" + flowId + "/settings", ADMIN_KEY,
                Map.of("localeSettings", Map.of("localeReference", foreignLocale, "inheritFallbackLocaleModel", true))), 400);
        assertThat((String) foreign.get("detail")).contains(foreignLocale, "not a locale of this flow's project");
        Map<String, Object> malformed = json(send("PATCH", "/v2.0/flows/" + flowId + "/settings", ADMIN_KEY,
                Map.of("localeSettings", Map.of("localeReference", foreignLocale), "timezone", "UTC")), 400);
        assertThat((Map<String, Object>) malformed.get("details")).containsOnlyKeys("localeSettings", "timezone");
        assertThat(eventCount()).isEqualTo(before);
    }
}
