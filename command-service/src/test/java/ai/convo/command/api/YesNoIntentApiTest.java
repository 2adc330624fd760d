package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client's yes/no intent writes: per locale, seeded on the first write, stored with their author, tenant-tight. */
class YesNoIntentApiTest extends FlowApiSupport {

    private String yes(String localeId) {
        return YesNoIntentId.of(localeId, YesNoKind.YES).value();
    }

    private String payloadsOf(String aggregateId) {
        return String.join("\n", jdbc.queryForList("SELECT payload_type || ' ' || convert_from(payload, 'UTF8') "
                + "FROM domain_event_entry WHERE aggregate_identifier = ? ORDER BY sequence_number", String.class,
                aggregateId));
    }

    @Test
    void givenAnEnglishLocale_whenItsYesIntentIsPatched_thenTheWholeItemAndTheSeedAndChangeAreStoredWithTheAuthor() {
        // given
        String localeId = (String) createProject(ADMIN_KEY, "YesNo " + Ids.newId(), "en-US").get("primaryLocaleReference");
        String uri = "/v2.0/locales/" + localeId + "/yesnointents/" + yes(localeId);
        // when
        Map<String, Object> item = json(send("PATCH", uri, ADMIN_KEY, Map.of("rules", List.of("input.text == 'y'"),
                "isDisabled", true)), 200);
        // then
        assertThat(item).containsEntry("_id", yes(localeId)).containsEntry("name", "yes")
                .containsEntry("rules", List.of("input.text == 'y'")).containsEntry("isDisabled", true);
        String stored = payloadsOf(yes(localeId));
        assertThat(stored).contains("YesNoIntentSeededEvent", "\"yeah\"", "YesNoIntentUpdatedEvent",
                "\"changedBy\":\"" + adminUserId() + "\"", "\"seededBy\":\"" + adminUserId() + "\"");
    }

    @Test
    void givenAYesIntent_whenSentencesAreAddedChangedAndDeleted_thenEachIsAnEventAndAnUnknownSentenceIs404() {
        // given
        String localeId = (String) createProject(ADMIN_KEY, "YesNo " + Ids.newId(), "de-DE").get("primaryLocaleReference");
        String sentences = "/v2.0/locales/" + localeId + "/yesnointents/" + yes(localeId) + "/sentences";
        // when
        Map<String, Object> created = json(send("POST", sentences, ADMIN_KEY, Map.of("text", "  jo  ")), 201);
        String id = (String) created.get("_id");
        Map<String, Object> changed = json(send("PATCH", sentences + "/" + id, ADMIN_KEY, Map.of("text", "jep")), 200);
        send("DELETE", sentences + "/" + id, ADMIN_KEY, null).expectStatus().isNoContent();
        long before = eventCount();
        Map<String, Object> gone = json(send("PATCH", sentences + "/" + id, ADMIN_KEY, Map.of("text", "x")), 404);
        // then
        assertThat(created).containsEntry("text", "jo");
        assertThat(changed).containsEntry("_id", id).containsEntry("text", "jep");
        assertThat((String) gone.get("detail")).contains("Sentence " + id + " does not exist");
        assertThat(eventCount()).isEqualTo(before);
        assertThat(payloadsOf(yes(localeId))).contains("\"genau\"", "YesNoSentenceCreatedEvent",
                "YesNoSentenceUpdatedEvent", "YesNoSentenceDeletedEvent");
    }

    @Test
    void givenAChangedNoIntent_whenDeleted_thenItIsResetToTheBuiltInSentences() {
        // given
        String localeId = (String) createProject(ADMIN_KEY, "YesNo " + Ids.newId(), "fr-FR").get("primaryLocaleReference");
        String no = YesNoIntentId.of(localeId, YesNoKind.NO).value();
        String uri = "/v2.0/locales/" + localeId + "/yesnointents/" + no;
        json(send("PATCH", uri, ADMIN_KEY, Map.of("isDisabled", true)), 200);
        // when
        send("DELETE", uri, ADMIN_KEY, null).expectStatus().isNoContent();
        // then
        assertThat(json(send("PATCH", uri, ADMIN_KEY, Map.of()), 200)).containsEntry("isDisabled", false)
                .containsEntry("rules", List.of()).containsEntry("name", "no");
        assertThat(payloadsOf(no)).contains("YesNoIntentResetEvent", "\"non merci\"");
    }

    @Test
    void givenAnotherOrganisationsLocale_whenItsYesIntentIsWritten_then404AsForAMissingLocaleAndNothingStored() {
        // given
        String otherKey = otherOrganisationKey("yesno-" + Ids.newId() + "@example.com");
        String localeId = (String) createProject(ADMIN_KEY, "YesNo " + Ids.newId(), "en-US").get("primaryLocaleReference");
        String absent = Ids.newId();
        long before = eventCount();
        // when
        Map<String, Object> foreign = json(send("PATCH", "/v2.0/locales/" + localeId + "/yesnointents/" + yes(localeId),
                otherKey, Map.of("isDisabled", true)), 404);
        Map<String, Object> missing = json(send("PATCH", "/v2.0/locales/" + absent + "/yesnointents/" + yes(absent),
                otherKey, Map.of("isDisabled", true)), 404);
        // then
        assertThat((String) foreign.get("detail")).isEqualTo("Locale " + localeId + " does not exist.");
        assertThat((String) missing.get("detail")).isEqualTo("Locale " + absent + " does not exist.");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenBadInput_whenWritten_then400Or404NamingWhatWasWrongAndNothingStored() {
        // given
        String localeId = (String) createProject(ADMIN_KEY, "YesNo " + Ids.newId(), "en-US").get("primaryLocaleReference");
        String base = "/v2.0/locales/" + localeId + "/yesnointents/";
        long before = eventCount();
        // when / then
        assertThat(json(send("PATCH", base + yes(localeId), ADMIN_KEY, Map.of("rules", "x")), 400).toString())
                .contains("rules");
        assertThat(json(send("PATCH", base + yes(localeId), ADMIN_KEY, Map.of("rules", List.of(" "))), 400).toString())
                .contains("rules");
        assertThat(json(send("PATCH", base + yes(localeId), ADMIN_KEY, Map.of("isDisabled", "no")), 400).toString())
                .contains("isDisabled");
        assertThat(json(send("PATCH", base + yes(localeId), ADMIN_KEY, Map.of("name", "x")), 400).toString())
                .contains("name");
        assertThat(json(send("POST", base + yes(localeId) + "/sentences", ADMIN_KEY, Map.of("text", "")), 400)
                .toString()).contains("text");
        assertThat(json(send("POST", base + yes(localeId) + "/sentences", ADMIN_KEY, Map.of()), 400).toString())
                .contains("text");
        String notYesNo = Ids.newId();
        assertThat((String) json(send("PATCH", base + notYesNo, ADMIN_KEY, Map.of()), 404).get("detail"))
                .contains("is not a yes/no intent of locale " + localeId, yes(localeId));
        json(send("PATCH", base + "bad", ADMIN_KEY, Map.of()), 400);
        assertThat(eventCount()).isEqualTo(before);
    }
}
