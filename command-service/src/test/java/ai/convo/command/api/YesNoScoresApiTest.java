package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * A sentence read as yes, no or reject the way the project's yesNoLogic and yesNoIntentThreshold say: by the
 * locale's trained yes/no model, or by the confirmation words; refused clearly when untrained or asked wrongly.
 */
class YesNoScoresApiTest extends SnapshotWorkSupport {

    @SuppressWarnings("unchecked")
    private Map<String, Object> score(String key, String localeId, Object body, int status) {
        return http.post().uri("/v2.0/locales/{l}/yesnointents/scores", localeId).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange().expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private void settings(String projectId, Map<String, Object> body) {
        http.patch().uri("/v2.0/projects/{p}/settings", projectId).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange().expectStatus().isOk();
    }

    @SuppressWarnings("unchecked")
    private void train(String localeId) {
        Map<String, Object> answer = http.post().uri("/v2.0/locales/{l}/yesnointents/train", localeId)
                .header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isAccepted().expectBody(Map.class)
                .returnResult().getResponseBody();
        awaitDone((String) ((List<Map<String, Object>>) answer.get("tasks")).get(0).get("_id"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenATrainedEnglishLocale_whenSentencesAreScored_thenTheModelDecidesAtTheProjectsThreshold() {
        // given
        Map<String, Object> project = createProject(ADMIN_KEY, "YesNo scores " + Ids.newId(), "en-US");
        String projectId = (String) project.get("_id");
        String localeId = (String) project.get("primaryLocaleReference");
        Map<String, Object> untrained = score(ADMIN_KEY, localeId, Map.of("sentence", "yes"), 409);
        train(localeId);

        // when
        Map<String, Object> yes = score(ADMIN_KEY, localeId, Map.of("sentence", "yes please"), 200);
        Map<String, Object> no = score(ADMIN_KEY, localeId, Map.of("sentence", "no thanks"), 200);
        settings(projectId, Map.of("yesNoIntentThreshold", 1));
        Map<String, Object> strict = score(ADMIN_KEY, localeId, Map.of("sentence", "yes please"), 200);

        // then
        assertThat((String) untrained.get("detail")).contains("have not been trained", "/yesnointents/train");
        assertThat(yes).containsEntry("yesNoLogic", "yesNoIntents").containsEntry("threshold", 0.5)
                .containsEntry("result", "yes");
        assertThat((List<Map<String, Object>>) yes.get("scores")).hasSize(3).first().satisfies(top -> assertThat(top)
                .containsEntry("id", YesNoIntentId.of(localeId, YesNoKind.YES).value()).containsEntry("name", "yes"));
        assertThat(no).containsEntry("result", "no");
        assertThat(strict).containsEntry("threshold", 1.0).containsEntry("result", null);
        assertThat(strict.get("scores")).isEqualTo(yes.get("scores"));
    }

    @Test
    void givenConfirmationWordsAsTheLogic_whenScored_thenTheWordListsDecideWithoutAModel() {
        // given: never trained; the project reads yes/no by its confirmation words
        Map<String, Object> project = createProject(ADMIN_KEY, "YesNo words " + Ids.newId(), "en-US");
        String localeId = (String) project.get("primaryLocaleReference");
        settings((String) project.get("_id"), Map.of("yesNoLogic", "confirmationWords",
                "positiveConfirmationWords", List.of("jawohl", "yes")));
        // when / then
        assertThat(score(ADMIN_KEY, localeId, Map.of("sentence", "  Jawohl "), 200))
                .containsEntry("yesNoLogic", "confirmationWords").containsEntry("result", "yes");
        assertThat(score(ADMIN_KEY, localeId, Map.of("sentence", "nope"), 200)).containsEntry("result", "no");
        assertThat(score(ADMIN_KEY, localeId, Map.of("sentence", "yes please"), 200)).containsEntry("result", null);
    }

    @Test
    void givenWrongBodiesOrAnotherOrganisationsLocale_whenScored_then400Or404() {
        // given
        Map<String, Object> project = createProject(ADMIN_KEY, "YesNo refused " + Ids.newId(), "en-US");
        String localeId = (String) project.get("primaryLocaleReference");
        String otherKey = otherOrganisationKey("yesno-scores-" + Ids.newId() + "@example.com");
        // when / then
        assertThat(score(ADMIN_KEY, localeId, Map.of(), 400).toString()).contains("sentence");
        assertThat(score(ADMIN_KEY, localeId, Map.of("sentence", "yes", "flowId", "x"), 400).toString())
                .contains("flowId");
        assertThat(score(otherKey, localeId, Map.of("sentence", "yes"), 404).toString()).contains(localeId);
        score(ADMIN_KEY, Ids.newId(), Map.of("sentence", "yes"), 404);
    }
}
