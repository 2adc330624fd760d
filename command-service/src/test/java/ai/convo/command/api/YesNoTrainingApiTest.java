package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** The client's trainYesNoIntents and trainYesNoIntentsProject: a task per locale, the model recorded by its author. */
class YesNoTrainingApiTest extends SnapshotWorkSupport {

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> tasksOf(String key, String uri) {
        Map<String, Object> body = http.post().uri(uri).header("X-API-Key", key).exchange()
                .expectStatus().isAccepted().expectBody(Map.class).returnResult().getResponseBody();
        return (List<Map<String, Object>>) body.get("tasks");
    }

    private List<Map<String, Object>> trainedEvents(String localeId) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'modelId' AS model, "
                + "convert_from(payload, 'UTF8')::jsonb ->> 'trainedBy' AS by, "
                + "(convert_from(payload, 'UTF8')::jsonb ->> 'position')::bigint AS position FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND payload_type LIKE '%.YesNoIntentsTrainedEvent' "
                + "ORDER BY global_index", YesNoIntentId.of(localeId, YesNoKind.YES).value());
    }

    @Test
    void givenAnEnglishLocale_whenTrainedTwice_thenATaskEachThatRecordsTheSameModelByTheCaller() {
        // given
        Map<String, Object> project = createProject(ADMIN_KEY, "YesNo train " + Ids.newId(), "en-US");
        String localeId = (String) project.get("primaryLocaleReference");
        // when
        List<Map<String, Object>> first = tasksOf(ADMIN_KEY, "/v2.0/locales/" + localeId + "/yesnointents/train");
        awaitDone((String) first.get(0).get("_id"));
        List<Map<String, Object>> second = tasksOf(ADMIN_KEY, "/v2.0/locales/" + localeId + "/yesnointents/train");
        awaitDone((String) second.get(0).get("_id"));
        // then
        assertThat(first).singleElement().satisfies(task -> assertThat(task)
                .containsEntry("type", "trainYesNoIntents").containsEntry("status", "queued"));
        List<Map<String, Object>> events = trainedEvents(localeId);
        assertThat(events).hasSize(2);
        assertThat(events.get(0).get("model")).isNotNull().isEqualTo(events.get(1).get("model"));
        assertThat(events.get(0).get("by")).isEqualTo(adminUserId());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM intent_model WHERE model_id = ?", Long.class,
                events.get(0).get("model"))).isEqualTo(1);
    }

    @Test
    void givenAProjectWithTwoLocales_whenItsYesNoIntentsAreTrained_thenOneTaskPerLocaleAndALanguageWithoutSentencesFails() {
        // given: English (built-in sentences) and Japanese (none built in)
        Map<String, Object> project = createProject(ADMIN_KEY, "YesNo project " + Ids.newId(), "en-US");
        String projectId = (String) project.get("_id");
        String japanese = (String) createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "Japanese",
                "nluLanguage", "ja-JP")).get("_id");
        // when
        List<Map<String, Object>> tasks = tasksOf(ADMIN_KEY, "/v2.0/projects/" + projectId
                + "/locales/yesnointents/train");
        // then
        assertThat(tasks).hasSize(2);
        List<String> ends = tasks.stream().map(t -> awaitEnd((String) t.get("_id"))).toList();
        assertThat(ends).containsExactlyInAnyOrder("done", "error");
        String failed = tasks.stream().map(t -> (String) t.get("_id")).filter(id -> awaitEnd(id).equals("error"))
                .findFirst().orElseThrow();
        assertThat(failReason(failed)).contains("Locale " + japanese, "at least two", "de, en, es, fr");
    }

    @Test
    void givenAnotherOrganisationsLocaleOrProject_whenTrained_then404AndNoTask() {
        // given
        String otherKey = otherOrganisationKey("yesno-train-" + Ids.newId() + "@example.com");
        Map<String, Object> project = createProject(ADMIN_KEY, "YesNo owned " + Ids.newId(), "en-US");
        long tasks = jdbc.queryForObject("SELECT count(*) FROM task_run", Long.class);
        // when / then
        http.post().uri("/v2.0/locales/{l}/yesnointents/train", project.get("primaryLocaleReference"))
                .header("X-API-Key", otherKey).exchange().expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON);
        http.post().uri("/v2.0/projects/{p}/locales/yesnointents/train", project.get("_id"))
                .header("X-API-Key", otherKey).exchange().expectStatus().isNotFound();
        http.post().uri("/v2.0/locales/bad/yesnointents/train").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isBadRequest();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM task_run", Long.class)).isEqualTo(tasks);
    }
}
