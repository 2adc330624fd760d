package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * Snapshots hold a locale's yes/no intents where they differ from never written: a restore brings back their
 * sentences, rules and disabled flag (and resets those the snapshot holds as built in), and a project whose yes/no
 * intents were never changed has the content it always had.
 */
class YesNoSnapshotTest extends SnapshotWorkSupport {

    private String uri(String localeId, YesNoKind kind) {
        return "/v2.0/locales/" + localeId + "/yesnointents/" + YesNoIntentId.of(localeId, kind).value();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> yesNoOf(String snapshotId, String nluLanguage) {
        return ((List<Map<String, Object>>) contentOf(snapshotId).get("locales")).stream()
                .filter(l -> nluLanguage.equals(l.get("nluLanguage"))).findFirst().map(l -> (List<Map<String, Object>>)
                        l.getOrDefault("yesNoIntents", List.of())).orElseThrow();
    }

    @Test
    void givenChangedYesNoIntents_whenSnapshottedChangedAndRestored_thenTheyAreTheSnapshots() throws Exception {
        // given: the English yes intent with a sentence and a rule, the German no intent disabled
        Built built = buildProject("Yes/no snapshot");
        String englishYes = uri(built.primaryLocaleId(), YesNoKind.YES);
        String added = id(created(HttpMethod.POST, englishYes + "/sentences", Map.of("text", "sure thing")));
        created(HttpMethod.PATCH, englishYes, Map.of("rules", List.of("input.text == 'y'")));
        created(HttpMethod.PATCH, uri(built.germanId(), YesNoKind.NO), Map.of("isDisabled", true));
        String before = snapshot(built.projectId());
        assertThat(yesNoOf(before, "de-DE")).containsExactly(Map.of("kind", "no", "rules", List.of(),
                "disabled", true, "sentences", List.of("auf keinen Fall", "falsch", "gar nicht", "keineswegs",
                        "lieber nicht", "nee", "nein", "nein danke", "nicht wirklich", "niemals", "nö",
                        "stimmt nicht")));
        assertThat(yesNoOf(before, "en-US")).singleElement().satisfies(yes -> {
            assertThat(yes).containsEntry("kind", "yes").containsEntry("rules", List.of("input.text == 'y'"));
            assertThat((List<String>) yes.get("sentences")).contains("sure thing", "yes");
        });

        // when: the sentence deleted and the rule dropped, the no intent reset, the German reject intent changed
        send(HttpMethod.DELETE, englishYes + "/sentences/" + added, null).expectStatus().isNoContent();
        created(HttpMethod.PATCH, englishYes, Map.of("rules", List.of()));
        send(HttpMethod.DELETE, uri(built.germanId(), YesNoKind.NO), null).expectStatus().isNoContent();
        created(HttpMethod.POST, uri(built.germanId(), YesNoKind.REJECT) + "/sentences", Map.of("text", "egal"));
        assertThat(contentOf(snapshot(built.projectId()))).isNotEqualTo(contentOf(before));
        restore(before, built.projectId());

        // then the content is the snapshot's, and the routes answer it
        assertSameContent(snapshot(built.projectId()), before);
        send(HttpMethod.PATCH, englishYes, Map.of()).expectStatus().isOk().expectBody()
                .jsonPath("$.rules[0]").isEqualTo("input.text == 'y'");
        send(HttpMethod.PATCH, uri(built.germanId(), YesNoKind.NO), Map.of()).expectStatus().isOk().expectBody()
                .jsonPath("$.isDisabled").isEqualTo(true);
    }

    @Test
    void givenASnapshotWithAChangedYesIntent_whenRestoredIntoAnotherProject_thenItIsChangedThere() throws Exception {
        // given
        Built source = buildProject("Yes/no source");
        created(HttpMethod.POST, uri(source.primaryLocaleId(), YesNoKind.YES) + "/sentences",
                Map.of("text", "absolutely yes"));
        String snapshot = snapshot(source.projectId());
        String target = id(createProject(ADMIN_KEY, "Yes/no target", "en-US"));
        // when
        restore(snapshot, target);
        // then the target's English locale (created by the restore) has the sentence
        String copy = snapshot(target);
        assertThat(yesNoOf(copy, "en-US")).isNotEmpty().isEqualTo(yesNoOf(snapshot, "en-US"));
    }

    @Test
    void givenYesNoIntentsWrittenButAsBuiltIn_whenSnapshotted_thenTheLocalesCarryNoYesNoField() throws Exception {
        // given: a yes/no intent seeded by a write that changed nothing, another changed and changed back
        Built built = buildProject("Yes/no untouched");
        created(HttpMethod.PATCH, uri(built.primaryLocaleId(), YesNoKind.YES), Map.of("rules", List.of()));
        created(HttpMethod.PATCH, uri(built.germanId(), YesNoKind.NO), Map.of("isDisabled", true));
        created(HttpMethod.PATCH, uri(built.germanId(), YesNoKind.NO), Map.of("isDisabled", false));
        // when
        String snapshot = snapshot(built.projectId());
        // then
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> locales = (List<Map<String, Object>>) contentOf(snapshot).get("locales");
        assertThat(locales).allSatisfy(locale -> assertThat(locale).doesNotContainKey("yesNoIntents"));
    }
}
