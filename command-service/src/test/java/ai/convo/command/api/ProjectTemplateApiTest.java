package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * createProjectByTemplate over real HTTP (POST /v2.0/projects/createbytemplate): 202 with the task; the task fills
 * the new project with the template as events of the caller; unknown templates and languages a template has no
 * content for are 400s naming what there is, with nothing stored.
 */
class ProjectTemplateApiTest extends SnapshotWorkSupport {

    private static final String ROUTE = "/v2.0/projects/createbytemplate";

    private Map<String, Object> body(String name, String locale, Object template) {
        Map<String, Object> configuration = new HashMap<>();
        configuration.put("endpoints", List.of(Map.of("channel", "webchat3")));
        configuration.put("skills", List.of());
        configuration.put("template", template);
        return Map.of("name", name, "locale", locale, "templateConfiguration", configuration,
                "handoverConfiguration", Map.of("setupLiveAgentInbox", false, "whisperAssistConfiguration", "none"));
    }

    @SuppressWarnings("unchecked")
    private String projectOf(Map<String, Object> task) {
        return (String) ((Map<String, Object>) task.get("parameters")).get("projectId");
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenTheSupportTemplate_whenAProjectIsCreatedByIt_thenTheTaskFillsItWithTheCallersEvents()
            throws Exception {
        // given / when
        Map<String, Object> task = accepted(ROUTE, body("Support bot", "de-DE", "support"));
        // then
        assertThat(task).containsEntry("type", "createProjectByTemplate");
        String projectId = projectOf(task);
        awaitDone((String) task.get("_id"));
        Map<String, Object> content = contentOf(snapshot(projectId));
        List<Map<String, Object>> flows = (List<Map<String, Object>>) content.get("flows");
        assertThat(flows).extracting(f -> f.get("name")).containsExactly("Support");
        List<Map<String, Object>> intents = (List<Map<String, Object>>) flows.get(0).get("intents");
        assertThat(intents).extracting(i -> i.get("name")).containsExactlyInAnyOrder("greeting", "openingHours",
                "humanHandover", "goodbye");
        assertThat(intents).allSatisfy(i -> assertThat((List<Map<String, Object>>) i.get("sentences")).hasSize(5));
        assertThat(intents).flatExtracting(i -> (List<Map<String, Object>>) i.get("sentences"))
                .extracting(s -> s.get("text")).contains("guten Morgen");
        assertThat((List<Map<String, Object>>) flows.get(0).get("slotFillers")).hasSize(2);
        assertThat((List<Map<String, Object>>) content.get("locales")).extracting(l -> l.get("nluLanguage"))
                .containsExactly("de-DE");
        // every event the template made names the caller as its author
        List<String> authors = jdbc.queryForList("SELECT DISTINCT convert_from(payload, 'UTF8')::jsonb ->> 'createdBy' "
                + "FROM domain_event_entry WHERE payload_type LIKE '%CreatedEvent' AND convert_from(payload, 'UTF8')"
                + "::jsonb ->> 'projectId' = ?", String.class, projectId);
        assertThat(authors).containsExactly(adminUserId());
        // a second run of the task (a runner that died) adds nothing
        long events = eventCount();
        work("createProjectByTemplate").run(new RecordingTaskContext(projectId, Map.of("template", "support",
                "locale", "de-DE"), admin()));
        assertThat(eventCount()).isEqualTo(events);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenNoTemplate_whenCreated_thenTheEmptyTemplateGivesTheProjectAndItsPrimaryLocaleOnly() throws Exception {
        Map<String, Object> task = accepted(ROUTE, Map.of("name", "Blank", "locale", "ja-JP"));
        awaitDone((String) task.get("_id"));
        Map<String, Object> content = contentOf(snapshot(projectOf(task)));
        assertThat((List<Object>) content.get("flows")).isEmpty();
        assertThat((List<Object>) content.get("locales")).hasSize(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenWhatAClientCanGetWrong_whenPosted_then400NamingItAndNothingIsStored() {
        // given
        long before = eventCount();
        // when / then: an unknown template lists the ones there are
        Map<String, Object> unknown = send(HttpMethod.POST, ROUTE, body("X", "en-US", "bank")).expectStatus()
                .isBadRequest().expectBody(Map.class).returnResult().getResponseBody();
        assertThat((Map<String, Object>) unknown.get("details")).containsOnlyKeys("templateConfiguration.template");
        assertThat((String) unknown.get("detail")).contains("empty, support");
        // a language the template has no content for
        Map<String, Object> language = send(HttpMethod.POST, ROUTE, body("X", "ja-JP", "support")).expectStatus()
                .isBadRequest().expectBody(Map.class).returnResult().getResponseBody();
        assertThat((String) ((Map<String, Object>) language.get("details")).get("locale")).contains("en-US", "de-DE",
                "es-ES");
        // bad shapes, every one named
        Map<String, Object> bad = new HashMap<>();
        bad.put("locale", "xx-XX");
        bad.put("templateConfiguration", Map.of("endpoints", "webchat", "skills", List.of(1), "colour", "red"));
        bad.put("handoverConfiguration", Map.of("whisperAssistConfiguration", "loud"));
        Map<String, Object> shapes = send(HttpMethod.POST, ROUTE, bad).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat((Map<String, Object>) shapes.get("details")).containsOnlyKeys("name", "locale",
                "templateConfiguration.endpoints", "templateConfiguration.skills", "templateConfiguration.colour",
                "handoverConfiguration.whisperAssistConfiguration");
        assertThat(eventCount()).isEqualTo(before);
    }
}
