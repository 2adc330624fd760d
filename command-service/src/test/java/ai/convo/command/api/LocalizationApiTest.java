package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official client's add/removeIntentLocalization and add/removeFlowLocalization over real HTTP: an intent's
 * localized content is its example sentences, copied into a locale from another one, or deleted from one.
 */
class LocalizationApiTest extends FlowApiSupport {

    private String flowId;
    private String english;
    private String german;
    private String intentId;
    private String otherIntentId;

    @BeforeEach
    void flowWithSentences() {
        Map<String, Object> flow = newFlow("Localized " + UUID.randomUUID());
        flowId = (String) flow.get("_id");
        String projectId = (String) flow.get("projectReference");
        english = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?", String.class,
                projectId);
        german = (String) createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "German", "nluLanguage",
                "de-DE")).get("_id");
        intentId = intent("order", "I want to order", "Order please");
        otherIntentId = intent("cancel", "Cancel it");
    }

    private String intent(String name, String... sentences) {
        String id = (String) json(send("POST", "/v2.0/flows/" + flowId + "/intents", ADMIN_KEY, Map.of("name", name)), 201)
                .get("_id");
        for (String text : sentences) {
            json(send("POST", "/v2.0/flows/" + flowId + "/intents/" + id + "/sentences", ADMIN_KEY,
                    Map.of("text", text, "localeId", english)), 201);
        }
        return id;
    }

    private List<String> sentences(String intent, String locale) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'text' FROM domain_event_entry e "
                + "WHERE aggregate_identifier = ? AND payload_type LIKE '%SentenceCreatedEvent' "
                + "AND convert_from(payload, 'UTF8')::jsonb ->> 'localeId' = ? AND NOT EXISTS (SELECT 1 FROM "
                + "domain_event_entry d WHERE d.aggregate_identifier = e.aggregate_identifier AND d.payload_type LIKE "
                + "'%SentenceDeletedEvent' AND convert_from(d.payload, 'UTF8')::jsonb ->> 'sentenceId' = "
                + "convert_from(e.payload, 'UTF8')::jsonb ->> 'sentenceId') ORDER BY 1", String.class, intent, locale);
    }

    @Test
    void givenAnIntentWithEnglishSentences_whenLocalizedIntoGermanFromEnglishTwice_thenEachSentenceIsCopiedOnce() {
        // given
        String uri = "/v2.0/flows/" + flowId + "/intents/" + intentId + "/addlocalization";
        // when
        Map<String, Object> answer = json(send("POST", uri, ADMIN_KEY, Map.of("localeId", german,
                "inheritFromLocaleId", english)), 200);
        json(send("POST", uri, ADMIN_KEY, Map.of("localeId", german, "inheritFromLocaleId", english)), 200);
        // then
        assertThat(answer).isEmpty();
        assertThat(sentences(intentId, german)).containsExactly("I want to order", "Order please");
        assertThat(sentences(intentId, english)).containsExactly("I want to order", "Order please");
    }

    @Test
    void givenAGermanLocalization_whenRemoved_thenTheGermanSentencesAreGoneAndTheEnglishStay() {
        // given
        String intent = "/v2.0/flows/" + flowId + "/intents/" + intentId;
        json(send("POST", intent + "/addlocalization", ADMIN_KEY, Map.of("localeId", german, "inheritFromLocaleId",
                english)), 200);
        // when
        json(send("POST", intent + "/removelocalization", ADMIN_KEY, Map.of("localeId", german)), 200);
        // then
        assertThat(sentences(intentId, german)).isEmpty();
        assertThat(sentences(intentId, english)).hasSize(2);
    }

    @Test
    void givenAFlow_whenLocalizedThenUnlocalized_thenEveryIntentOfItFollowsInOneRequestEach() {
        // given / when
        json(send("POST", "/v2.0/flows/" + flowId + "/addlocalization", ADMIN_KEY, Map.of("localeId", german,
                "inheritFromLocaleId", english)), 200);
        // then
        assertThat(sentences(intentId, german)).hasSize(2);
        assertThat(sentences(otherIntentId, german)).containsExactly("Cancel it");
        // when
        json(send("POST", "/v2.0/flows/" + flowId + "/removelocalization", ADMIN_KEY, Map.of("localeId", english)), 200);
        // then
        assertThat(sentences(intentId, english)).isEmpty();
        assertThat(sentences(otherIntentId, english)).isEmpty();
        assertThat(sentences(otherIntentId, german)).containsExactly("Cancel it");
    }

    @Test
    void givenWrongLocalesOrATranslationRequest_whenLocalizing_thenProblemsAndNothingIsStored() {
        // given
        String otherProjectLocale = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?",
                String.class, createProject(ADMIN_KEY, "Elsewhere " + UUID.randomUUID(), "fr-FR").get("_id"));
        String intent = "/v2.0/flows/" + flowId + "/intents/" + intentId;
        String stranger = otherOrganisationKey("localizer-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        send("POST", intent + "/addlocalization", ADMIN_KEY, Map.of("localeId", otherProjectLocale,
                "inheritFromLocaleId", english)).expectStatus().isBadRequest();
        send("POST", intent + "/addlocalization", ADMIN_KEY, Map.of("localeId", german, "inheritFromLocaleId", german))
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.inheritFromLocaleId").exists();
        send("POST", intent + "/addlocalization", ADMIN_KEY, Map.of("localeId", german, "intentTranslationSettings",
                Map.of("provider", "deepl"))).expectStatus().isEqualTo(501);
        send("POST", intent + "/addlocalization", ADMIN_KEY, Map.of()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.localeId").exists();
        send("POST", "/v2.0/flows/" + flowId + "/removelocalization", ADMIN_KEY, Map.of("localeId", otherProjectLocale))
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.localeId").exists();
        send("POST", "/v2.0/flows/" + flowId + "/addlocalization", stranger, Map.of("localeId", german))
                .expectStatus().isNotFound();
        send("POST", intent + "/removelocalization", stranger, Map.of("localeId", english)).expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
    }
}
