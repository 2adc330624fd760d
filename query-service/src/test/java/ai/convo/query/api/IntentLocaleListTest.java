package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * preferredLocaleId on the intent list and the intent read: each intent's localeReference is the preferred
 * locale if it has sentences there, else the first locale of the preferred locale's fallback chain that has,
 * else the project's primary locale; sentenceCount counts its sentences in that locale.
 */
class IntentLocaleListTest extends IntentQuerySupport {

    private Caller caller;
    private Project project;
    private String flow;
    private String base;
    private long position;
    private String en;
    private final String fr = Ids.newId();
    private final String de = Ids.newId();
    private final String it = Ids.newId();
    private final String i1 = Ids.newId();
    private final String i2 = Ids.newId();
    private final String i3 = Ids.newId();
    private final String i4 = Ids.newId();
    private final String i5 = Ids.newId();
    private String deSentence;

    @BeforeEach
    void seed() {
        // given: en (primary), fr, de -> fr, it -> de -> fr
        caller = newOrganisation();
        project = project(caller, "Locales", 1000);
        en = project.primaryLocaleId();
        locale(caller, project.id(), fr, "French", "fr-FR", null);
        locale(caller, project.id(), de, "German", "de-DE", fr);
        locale(caller, project.id(), it, "Italian", "it-IT", de);
        flow = newFlow(caller, project.id(), 1000);
        base = "/v2.0/flows/" + flow + "/intents";
        for (String id : List.of(i1, i2, i3, i4, i5)) {
            intent(caller, project.id(), flow, id, "intent " + id, null, 1000);
        }
        // i1: de 2, fr 1, en 1 | i2: fr 3 | i3: en 1 | i4: none | i5: it 1
        deSentence = Ids.newId();
        sentence(caller, project.id(), flow, i1, deSentence, de, "eins", 1001);
        sentences(caller, project.id(), flow, i1, de, 1);
        sentences(caller, project.id(), flow, i1, fr, 1);
        sentences(caller, project.id(), flow, i1, en, 1);
        sentences(caller, project.id(), flow, i2, fr, 3);
        sentences(caller, project.id(), flow, i3, en, 1);
        position = sentences(caller, project.id(), flow, i5, it, 1);
    }

    /** id -> [localeReference, sentenceCount] of every item of the list. */
    private Map<String, List<Object>> localized(String query) {
        Map<String, Object> page = get(base + "?limit=100" + query, caller, position);
        Map<String, List<Object>> out = new java.util.HashMap<>();
        items(page).forEach(i -> out.put((String) i.get("_id"), List.of(i.get("localeReference"), i.get("sentenceCount"))));
        return out;
    }

    @Test
    void givenNoPreferredLocale_whenListing_thenThePrimaryLocaleAndTheSentencesInIt() {
        // when
        Map<String, List<Object>> items = localized("");
        // then
        assertThat(items).containsEntry(i1, List.of(en, 1)).containsEntry(i2, List.of(en, 0))
                .containsEntry(i3, List.of(en, 1)).containsEntry(i4, List.of(en, 0)).containsEntry(i5, List.of(en, 0));
    }

    @Test
    void givenAPreferredLocale_whenListing_thenThePreferredLocaleItsFallbacksInOrderOrThePrimary() {
        // when
        Map<String, List<Object>> items = localized("&preferredLocaleId=" + de);
        // then
        assertThat(items).containsEntry(i1, List.of(de, 2))   // has sentences in de
                .containsEntry(i2, List.of(fr, 3))            // de -> fr
                .containsEntry(i3, List.of(en, 1))            // none along de -> fr: the primary
                .containsEntry(i4, List.of(en, 0))
                .containsEntry(i5, List.of(en, 0));           // it is not in de's chain
    }

    @Test
    void givenALongerFallbackChain_whenListing_thenTheFirstLocaleOfTheChainWithSentencesWins() {
        // when
        Map<String, List<Object>> items = localized("&preferredLocaleId=" + it);
        // then: it -> de -> fr
        assertThat(items).containsEntry(i1, List.of(de, 2)).containsEntry(i2, List.of(fr, 3))
                .containsEntry(i5, List.of(it, 1)).containsEntry(i3, List.of(en, 1));
    }

    @Test
    void givenSentencesAreDeletedOrLocalesChange_whenListing_thenCountsAndChainsFollow() {
        // when: one de sentence of i1 is deleted, de stops falling back to fr, fr becomes the primary locale
        append(i1, new SentenceDeletedEvent(deSentence, i1, flow, project.id(), caller.organisationId(), de,
                caller.userId(), 2000));
        append(project.id(), new LocaleUpdatedEvent(project.id(), caller.organisationId(), de,
                List.of("fallbackLocaleReference"), "German", "de-DE", false, null, caller.userId(), 2000));
        append(project.id(), new LocaleUpdatedEvent(project.id(), caller.organisationId(), fr, List.of("primary"),
                "French", "fr-FR", true, null, caller.userId(), 2000));
        position = append(project.id(), new PrimaryLocaleChangedEvent(project.id(), caller.organisationId(), en, fr,
                caller.userId(), 2000));
        // then
        Map<String, List<Object>> preferringDe = localized("&preferredLocaleId=" + de);
        assertThat(preferringDe).containsEntry(i1, List.of(de, 1)).containsEntry(i2, List.of(fr, 3))
                .containsEntry(i3, List.of(fr, 0));
        assertThat(localized("")).containsEntry(i1, List.of(fr, 1)).containsEntry(i3, List.of(fr, 0));
    }

    @Test
    void givenALocaleOfAnotherProjectOrAnUnknownOne_whenPreferred_then400NamingPreferredLocaleId() {
        // given
        Project other = project(caller, "Other", 1000);
        // when / then
        Map<String, Object> problem = problem(base + "?preferredLocaleId=" + other.primaryLocaleId(), caller,
                other.position(), 400);
        assertThat((Map<String, Object>) problem.get("details")).containsKey("preferredLocaleId");
        assertThat((String) problem.get("detail")).contains("not a locale of this flow's project");
        problem(base + "?preferredLocaleId=" + Ids.newId(), caller, position, 400);
        problem(base + "/" + i1 + "?preferredLocaleId=" + other.primaryLocaleId(), caller, position, 400);
    }

    @Test
    void givenAPreferredLocale_whenReadingOneIntent_thenItsLocaleReferenceFollowsTheSameRule() {
        // when / then
        assertThat(get(base + "/" + i2 + "?preferredLocaleId=" + de, caller, position).get("localeReference"))
                .isEqualTo(fr);
        assertThat(get(base + "/" + i1 + "?preferredLocaleId=" + de, caller, position).get("localeReference"))
                .isEqualTo(de);
        assertThat(get(base + "/" + i4 + "?preferredLocaleId=" + it, caller, position).get("localeReference"))
                .isEqualTo(en);
        assertThat(get(base + "/" + i2, caller, position).get("localeReference")).isEqualTo(en);
    }

    @Test
    void givenPreferredLocaleAndIncludeChildren_whenListing_thenNestedChildrenAreLocalizedToo() {
        // given: i2 (fr 3) becomes a child of i4
        String child = Ids.newId();
        intent(caller, project.id(), flow, child, "child", i4, 1000);
        position = sentences(caller, project.id(), flow, child, de, 4);
        // when
        Map<String, Object> page = get(base + "?includeChildren=true&limit=100&preferredLocaleId=" + it, caller, position);
        // then
        Map<String, Object> parent = items(page).stream().filter(i -> i.get("_id").equals(i4)).findFirst().orElseThrow();
        assertThat(children(parent)).singleElement().satisfies(c -> assertThat(c)
                .containsEntry("localeReference", de).containsEntry("sentenceCount", 4));
    }
}
