package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/** The example sentence write routes: POST, PATCH, DELETE /v2.0/flows/{flowId}/intents/{intentId}/sentences[/{id}]. */
class SentenceApiTest extends IntentApiSupport {

    private String sentencesOf(Flow flow, String intentId) {
        return intentsOf(flow) + "/" + intentId + "/sentences";
    }

    @Test
    void givenAnIntent_whenAddingASentence_then201WithTheRecordLocationAndEventPosition() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        // when
        var response = http.post().uri(sentencesOf(flow, intent)).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("text", "I want a pizza", "localeId", flow.primaryLocaleId())).exchange();
        // then
        Map<String, Object> sentence = response.expectStatus().isCreated()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult().getResponseBody();
        String id = (String) sentence.get("_id");
        response.expectHeader().location("/new" + sentencesOf(flow, intent) + "/" + id);
        assertThat(sentence.keySet()).containsExactly("_id", "text", "localeReference", "createdAt", "lastChanged",
                "createdBy", "lastChangedBy");
        assertThat(sentence).containsEntry("text", "I want a pizza")
                .containsEntry("localeReference", flow.primaryLocaleId())
                .containsEntry("createdBy", adminUserId());
        // The intent now answers in the locale that has the sentence.
        assertThat(patchIntent(flow, intent, Map.of(), 200).get("localeReference")).isEqualTo(flow.primaryLocaleId());
    }

    @Test
    void givenInvalidBodies_whenAddingASentence_then400NamingTheFields() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        // when / then
        assertThat(details(json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY, Map.of()), 400)))
                .containsOnlyKeys("text", "localeId");
        assertThat(details(json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY,
                Map.of("text", "x".repeat(2001), "localeId", "short", "slots", 1)), 400)))
                .containsOnlyKeys("text", "localeId", "slots");
        assertThat(details(json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY,
                Map.of("text", " ", "localeId", flow.primaryLocaleId())), 400))).containsOnlyKeys("text");
        // 2000 characters are fine
        addSentence(flow, intent, flow.primaryLocaleId(), "y".repeat(2000));
    }

    @Test
    void givenTheSlotsTheOfficialClientSends_whenEmpty_thenAcceptedAndOtherwise400NamingSlots() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        // when / then
        Map<String, Object> sentence = json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY,
                Map.of("text", "pizza", "localeId", flow.primaryLocaleId(), "slots", java.util.List.of())), 201);
        String url = sentencesOf(flow, intent) + "/" + sentence.get("_id");
        assertThat(json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of("text", "a pizza", "slots", java.util.List.of())),
                200).get("text")).isEqualTo("a pizza");
        Map<String, Object> problem = json(send(HttpMethod.PATCH, url, ADMIN_KEY,
                Map.of("slots", java.util.List.of(Map.of("type", "anySlot", "start", 0, "end", 1)))), 400);
        assertThat((String) details(problem).get("slots")).contains("not supported");
    }

    @Test
    void givenALocaleOfAnotherProjectOrUnknown_whenAddingASentence_then400NamingLocaleId() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        String foreign = (String) createProject(ADMIN_KEY, "Other project", "de-DE").get("primaryLocaleReference");
        // when / then
        Map<String, Object> problem = json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY,
                Map.of("text", "hi", "localeId", foreign)), 400);
        assertThat((String) details(problem).get("localeId")).contains(foreign, "not a locale of this flow's project");
        json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY, Map.of("text", "hi", "localeId", Ids.newId())),
                400);
    }

    @Test
    void givenIntentsOutOfReach_whenAddingASentence_then404() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Mine");
        String otherKey = otherOrganisationKey("sentence-thief-" + Ids.newId() + "@example.com");
        Map<String, Object> body = Map.of("text", "hi", "localeId", flow.primaryLocaleId());
        // when / then
        json(send(HttpMethod.POST, sentencesOf(flow, Ids.newId()), ADMIN_KEY, body), 404);
        json(send(HttpMethod.POST, sentencesOf(flow, intent), otherKey, body), 404);
        json(send(HttpMethod.POST, sentencesOf(newFlow(), intent), ADMIN_KEY, body), 404);
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow) + "/x/sentences", ADMIN_KEY, body), 400)))
                .containsKey("intentId");
    }

    @Test
    void givenASentence_whenPatched_then200WithTheNewTextAndItsLocaleKept() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        Map<String, Object> sentence = addSentence(flow, intent, flow.primaryLocaleId(), "pizza");
        String url = sentencesOf(flow, intent) + "/" + sentence.get("_id");
        // when
        Map<String, Object> updated = json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of("text", "a pizza please")), 200);
        // then
        assertThat(updated).containsEntry("_id", sentence.get("_id")).containsEntry("text", "a pizza please")
                .containsEntry("localeReference", flow.primaryLocaleId())
                .containsEntry("createdAt", sentence.get("createdAt"));
        assertThat(json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of()), 200)).isEqualTo(updated);
        assertThat(details(json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of("text", "", "localeId",
                flow.primaryLocaleId())), 400))).containsOnlyKeys("text", "localeId");
        json(send(HttpMethod.PATCH, sentencesOf(flow, intent) + "/" + Ids.newId(), ADMIN_KEY, Map.of("text", "x")), 404);
        assertThat(details(json(send(HttpMethod.PATCH, sentencesOf(flow, intent) + "/nope", ADMIN_KEY,
                Map.of("text", "x")), 400))).containsKey("sentenceId");
        String otherKey = otherOrganisationKey("sentence-editor-" + Ids.newId() + "@example.com");
        json(send(HttpMethod.PATCH, url, otherKey, Map.of("text", "stolen")), 404);
    }

    @Test
    void givenTheBodyTheOfficialClientSends_whenPatchingWithTheSentencesOwnLocaleReference_then200() {
        // given: updateSentence's type requires text, slots and localeReference in the body
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        String german = (String) createLocale(flow.projectId(), "German", "de-DE", null).get("_id");
        Map<String, Object> sentence = addSentence(flow, intent, german, "Pizza");
        String url = sentencesOf(flow, intent) + "/" + sentence.get("_id");
        // when
        Map<String, Object> updated = json(send(HttpMethod.PATCH, url, ADMIN_KEY,
                Map.of("text", "Eine Pizza", "slots", java.util.List.of(), "localeReference", german)), 200);
        // then
        assertThat(updated).containsEntry("text", "Eine Pizza").containsEntry("localeReference", german);
    }

    @Test
    void givenASentence_whenThePatchNamesAnotherOrAMalformedLocaleReference_then400AndNothingChanges() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        String german = (String) createLocale(flow.projectId(), "German", "de-DE", null).get("_id");
        Map<String, Object> sentence = addSentence(flow, intent, german, "Pizza");
        String url = sentencesOf(flow, intent) + "/" + sentence.get("_id");
        // when
        Map<String, Object> moved = json(send(HttpMethod.PATCH, url, ADMIN_KEY,
                Map.of("text", "A pizza", "localeReference", flow.primaryLocaleId())), 400);
        Map<String, Object> malformed = json(send(HttpMethod.PATCH, url, ADMIN_KEY,
                Map.of("text", "A pizza", "localeReference", "en-US")), 400);
        // then
        assertThat((String) details(moved).get("localeReference"))
                .contains(flow.primaryLocaleId(), german, "cannot move to another locale");
        assertThat(details(malformed)).containsOnlyKeys("localeReference");
        assertThat(json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of()), 200))
                .containsEntry("text", "Pizza").containsEntry("localeReference", german);
    }

    @Test
    void givenASentence_whenDeleted_then204AndThenItIsGone() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        String url = sentencesOf(flow, intent) + "/" + addSentence(flow, intent, flow.primaryLocaleId(), "pizza").get("_id");
        String otherKey = otherOrganisationKey("sentence-deleter-" + Ids.newId() + "@example.com");
        // when / then
        http.delete().uri(url).header("X-API-Key", otherKey).exchange().expectStatus().isNotFound();
        http.delete().uri(url).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNoContent()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive());
        http.delete().uri(url).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNotFound();
        json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of("text", "back")), 404);
    }

    @Test
    void givenADeletedIntent_whenItsSentencesAreAddressed_then404() {
        // given
        Flow flow = newFlow();
        String intent = intentNamed(flow, "Order pizza");
        String url = sentencesOf(flow, intent) + "/" + addSentence(flow, intent, flow.primaryLocaleId(), "pizza").get("_id");
        // when
        http.delete().uri(intentsOf(flow) + "/" + intent).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent();
        // then
        json(send(HttpMethod.PATCH, url, ADMIN_KEY, Map.of("text", "x")), 404);
        http.delete().uri(url).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNotFound();
        json(send(HttpMethod.POST, sentencesOf(flow, intent), ADMIN_KEY,
                Map.of("text", "x", "localeId", flow.primaryLocaleId())), 404);
    }
}
