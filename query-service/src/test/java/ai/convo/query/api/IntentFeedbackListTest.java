package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * includeFeedbackReport=true on the intent list: each item's feedbackReport in its localeReference, kept up to date
 * by the read side. The expected reports here are worked out by hand from the rules of FEEDBACK.md.
 */
class IntentFeedbackListTest extends IntentQuerySupport {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private Caller caller;
    private Project project;
    private String flow;
    private String base;
    private long position;
    private String en;
    private final String de = Ids.newId();
    private final String flights = Ids.newId();
    private final String weather = Ids.newId();
    private final String hotels = Ids.newId();

    @BeforeEach
    void seed() {
        // given: three intents with disjoint vocabularies, two sentences each sharing the intent's own word (en);
        // in de, Flights has two sentences sharing "flug" and Weather one
        caller = newOrganisation();
        project = project(caller, "Feedback", 1000);
        en = project.primaryLocaleId();
        locale(caller, project.id(), de, "German", "de-DE", null);
        flow = newFlow(caller, project.id(), 1000);
        base = "/v2.0/flows/" + flow + "/intents";
        intent(caller, project.id(), flow, flights, "Flights", null, 1000);
        intent(caller, project.id(), flow, weather, "Weather", null, 1000);
        intent(caller, project.id(), flow, hotels, "Hotels", null, 1000);
        say(flights, en, "book flight");
        say(flights, en, "flight ticket");
        say(weather, en, "weather today");
        say(weather, en, "weather tomorrow");
        say(hotels, en, "hotel room");
        say(hotels, en, "hotel booking");
        say(flights, de, "flug buchen");
        say(flights, de, "flug ticket");
        say(weather, de, "wetter heute");
    }

    private void say(String intentId, String localeId, String text) {
        position = sentence(caller, project.id(), flow, intentId, Ids.newId(), localeId, text, 1000);
    }

    @SafeVarargs
    private static Map<String, Object> report(double fScore, Map<String, Object>... findings) {
        return Map.of("findings", List.of(findings), "info", Map.of("fScore", fScore));
    }

    private static Map<String, Object> finding(String type) {
        return Map.of("type", type);
    }

    /** id -> feedbackReport of every item, once {@code until} holds (polled, with a deadline). */
    private Map<String, Object> reports(String query, Predicate<Map<String, Object>> until) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (true) {
            Map<String, Object> page = get(base + "?includeFeedbackReport=true&limit=100" + query, caller, position);
            Map<String, Object> byId = new HashMap<>();
            items(page).forEach(item -> {
                assertThat(item).containsKey("feedbackReport");
                byId.put((String) item.get("_id"), item.get("feedbackReport"));
            });
            if (until.test(byId) || Instant.now().isAfter(deadline)) {
                return byId;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static Predicate<Map<String, Object>> allComputed() {
        return byId -> byId.values().stream().allMatch(r -> r != null);
    }

    @Test
    void givenSeparableIntentsWithTwoSentencesEach_whenListing_thenFScoreOneGoodAndFewSentences() {
        // when
        Map<String, Object> reports = reports("", allComputed());
        // then: every leave-one-out sentence only shares its weighted word with its own intent -> TP 2, FP 0
        Map<String, Object> expected = report(1.0, finding("goodFScore"), finding("fewSentences"));
        assertThat(reports).containsEntry(flights, expected).containsEntry(weather, expected)
                .containsEntry(hotels, expected);
    }

    @Test
    void givenASentenceIsAdded_whenListing_thenTheReportFollowsWithAStrongOverlapNamingTheOtherIntent() {
        // given
        reports("", allComputed());
        // when: Hotels gets a sentence identical to one of Weather's
        say(hotels, en, "weather today");
        // then
        Map<String, Object> reports = reports("", byId -> byId.get(weather) != null
                && byId.get(weather).toString().contains("strongOverlap"));
        assertThat(findings(reports, weather)).contains(Map.of("type", "strongOverlap", "intentIds", List.of(hotels),
                "intentNames", List.of("Hotels")));
        assertThat(findings(reports, hotels)).contains(Map.of("type", "strongOverlap", "intentIds", List.of(weather),
                "intentNames", List.of("Weather")));
        assertThat(reports.get(flights)).isEqualTo(report(1.0, finding("goodFScore"), finding("fewSentences")));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> findings(Map<String, Object> reports, String intentId) {
        return (List<Map<String, Object>>) ((Map<String, Object>) reports.get(intentId)).get("findings");
    }

    @Test
    void givenAPreferredLocale_whenListing_thenEachItemHasTheReportOfItsLocaleReference() {
        // when
        Map<String, Object> reports = reports("&preferredLocaleId=" + de, allComputed());
        // then: in de, Weather's only sentence has no own centroid left and shares no word -> unpredicted, fScore 0;
        // Flights' two sentences share "flug" (idf ln 2) -> 1.0; Hotels has no de sentence -> the en report
        assertThat(reports).containsEntry(weather, report(0.0, finding("poorFScore"), finding("fewSentences")))
                .containsEntry(flights, report(1.0, finding("goodFScore"), finding("fewSentences")))
                .containsEntry(hotels, report(1.0, finding("goodFScore"), finding("fewSentences")));
    }

    @Test
    void givenAFlowWithOneIntent_whenListing_thenNoSiblingsAndFScoreZero() {
        // given
        String lonely = newFlow(caller, project.id(), 1000);
        String only = Ids.newId();
        intent(caller, project.id(), lonely, only, "Only", null, 1000);
        sentence(caller, project.id(), lonely, only, Ids.newId(), en, "hello there", 1000);
        position = sentence(caller, project.id(), lonely, only, Ids.newId(), en, "hello you", 1000);
        // when
        Map<String, Object> item = items(get("/v2.0/flows/" + lonely + "/intents?includeFeedbackReport=true",
                caller, position)).get(0);
        // then: one intent, every idf is ln(1/1) = 0 -> no prediction
        assertThat(item.get("feedbackReport")).isEqualTo(report(0.0, finding("poorFScore"), finding("fewSentences"),
                finding("noSiblings")));
    }

    @Test
    void givenIncludeChildren_whenListing_thenNestedChildrenHaveTheirReportToo() {
        // given
        String child = Ids.newId();
        position = intent(caller, project.id(), flow, child, "Child", hotels, 1000);
        // when
        Map<String, Object> page = get(base + "?includeChildren=true&includeFeedbackReport=true&limit=100", caller,
                position);
        // then: the child has no sentence; four intents, so no noSiblings
        Map<String, Object> parent = items(page).stream().filter(i -> i.get("_id").equals(hotels)).findFirst()
                .orElseThrow();
        Map<String, Object> nested = children(parent).get(0);
        assertThat(nested.get("_id")).isEqualTo(child);
        assertThat(nested).containsKey("feedbackReport");
        Instant deadline = Instant.now().plus(DEADLINE);
        while (nested.get("feedbackReport") == null && Instant.now().isBefore(deadline)) {
            page = get(base + "?includeChildren=true&includeFeedbackReport=true&limit=100", caller, position);
            parent = items(page).stream().filter(i -> i.get("_id").equals(hotels)).findFirst().orElseThrow();
            nested = children(parent).get(0);
        }
        assertThat(nested.get("feedbackReport")).isEqualTo(report(0.0, finding("fewSentences")));
    }

    @Test
    void givenAnotherOrganisation_whenAskingForReports_then404() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        problem(base + "?includeFeedbackReport=true", stranger, position, 404);
        problem(base + "?includeFeedbackReport=yes", caller, position, 400);
    }
}
