package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoSentenceCreatedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client's readYesNoIntents and a yes/no intent's sentences, from the events as the command service stores them. */
class YesNoIntentReadTest extends IntentQuerySupport {

    @SuppressWarnings("unchecked")
    private static List<String> texts(Map<String, Object> page) {
        return items(page).stream().map(item -> (String) item.get("text")).toList();
    }

    @Test
    void givenANewEnglishLocale_whenItsYesNoIntentsAreRead_thenAllThreeWithTheBuiltInSentences() {
        // given
        Caller caller = newOrganisation();
        Project project = project(caller, "yesno", 1_000);
        String yes = YesNoIntentId.of(project.primaryLocaleId(), YesNoKind.YES).value();
        // when
        Map<String, Object> intents = get("/v2.0/locales/" + project.primaryLocaleId() + "/yesnointents", caller,
                project.position());
        Map<String, Object> sentences = get("/v2.0/locales/" + project.primaryLocaleId() + "/yesnointents/" + yes
                + "/sentences?limit=100", caller, project.position());
        // the client sends {} as the body of this GET
        http.method(org.springframework.http.HttpMethod.GET).uri("/v2.0/locales/{l}/yesnointents",
                        project.primaryLocaleId()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(project.position()))
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON).bodyValue("{}").exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.yesIntent._id").isEqualTo(yes);
        // then
        assertThat(intents).containsOnlyKeys("yesIntent", "noIntent", "rejectIntent");
        assertThat(intents.get("yesIntent")).isEqualTo(Map.of("_id", yes, "name", "yes", "rules", List.of(),
                "isDisabled", false));
        assertThat(texts(sentences)).contains("yeah", "of course").hasSize(YesNoSeeds.sentences(
                YesNoIntentId.of(yes), YesNoKind.YES, "en-US").size());
    }

    @Test
    void givenAWrittenYesIntent_whenRead_thenItsStoredSeedRulesAndSentencesAndALanguageChangeLeavesThem() {
        // given
        Caller caller = newOrganisation();
        Project project = project(caller, "written", 1_000);
        String locale = project.primaryLocaleId();
        YesNoIntentId yes = YesNoIntentId.of(locale, YesNoKind.YES);
        String no = YesNoIntentId.of(locale, YesNoKind.NO).value();
        append(yes.value(), new YesNoIntentSeededEvent(yes.value(), locale, project.id(), caller.organisationId(), "yes",
                "en-US", YesNoSeeds.sentences(yes, YesNoKind.YES, "en-US"), caller.userId(), 1_100));
        append(yes.value(), new YesNoIntentUpdatedEvent(yes.value(), locale, project.id(), caller.organisationId(),
                List.of("rule"), true, caller.userId(), 1_200));
        append(yes.value(), new YesNoSentenceCreatedEvent(yes.value(), Ids.newId(), locale, project.id(),
                caller.organisationId(), "yessir", caller.userId(), 1_300));
        // when: the locale's language changes afterwards
        long position = append(project.id(), new LocaleUpdatedEvent(project.id(), caller.organisationId(), locale,
                List.of("nluLanguage"), "en-US", "de-DE", true, null, caller.userId(), 1_400));
        Map<String, Object> intents = get("/v2.0/locales/" + locale + "/yesnointents", caller, position);
        List<String> yesTexts = texts(get("/v2.0/locales/" + locale + "/yesnointents/" + yes.value()
                + "/sentences?limit=100", caller, position));
        List<String> noTexts = texts(get("/v2.0/locales/" + locale + "/yesnointents/" + no + "/sentences?limit=100",
                caller, position));
        // then: the written intent keeps what was stored; the unwritten one shows the new language's built-ins
        assertThat(intents.get("yesIntent")).isEqualTo(Map.of("_id", yes.value(), "name", "yes", "rules",
                List.of("rule"), "isDisabled", true));
        assertThat(yesTexts).contains("yeah", "yessir").doesNotContain("ja");
        assertThat(noTexts).contains("nein").doesNotContain("nope");
    }

    @Test
    void givenAnotherOrganisationsOrADeletedLocale_whenRead_then404AsForOneThatDoesNotExist() {
        // given
        Caller owner = newOrganisation();
        Caller stranger = newOrganisation();
        Project project = project(owner, "owned", 1_000);
        String locale = project.primaryLocaleId();
        String yes = YesNoIntentId.of(locale, YesNoKind.YES).value();
        // when / then
        assertThat(problem("/v2.0/locales/" + locale + "/yesnointents", stranger, project.position(), 404)
                .get("detail")).isEqualTo("Locale " + locale + " does not exist.");
        assertThat(problem("/v2.0/locales/" + locale + "/yesnointents/" + yes + "/sentences", stranger,
                project.position(), 404).get("detail").toString()).contains("does not exist");
        assertThat(problem("/v2.0/locales/" + locale + "/yesnointents/" + Ids.newId() + "/sentences", owner,
                project.position(), 404).get("detail").toString()).contains("does not exist");
        assertThat(problem("/v2.0/locales/bad/yesnointents", owner, project.position(), 400).toString())
                .contains("localeId");
        long deleted = append(project.id(), new LocaleDeletedEvent(project.id(), owner.organisationId(), locale,
                owner.userId(), 2_000));
        assertThat(problem("/v2.0/locales/" + locale + "/yesnointents", owner, deleted, 404).get("detail"))
                .isEqualTo("Locale " + locale + " does not exist.");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM yes_no_sentence WHERE locale_id = ?", Long.class, locale))
                .isZero();
    }
}
