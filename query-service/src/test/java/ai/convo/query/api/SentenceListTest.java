package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;

/** The sentence list, GET /v2.0/flows/{flowId}/intents/{intentId}/sentences, and the single sentence read. */
class SentenceListTest extends IntentQuerySupport {

    /** A sentence as seeded. */
    record Sentence(String id, String text, String locale, long createdAt, long lastChanged) {
    }

    private Caller caller;
    private Project project;
    private String flow;
    private String intent;
    private String base;
    private String de;
    private long position;
    private final List<Sentence> seeded = new ArrayList<>();

    @BeforeEach
    void seed() {
        // given: one intent with 11 sentences in two locales; texts, locales and times order them differently
        caller = newOrganisation();
        project = project(caller, "Sentences", 1000);
        de = Ids.newId();
        locale(caller, project.id(), de, "German", "de-DE", null);
        flow = newFlow(caller, project.id(), 1000);
        intent = Ids.newId();
        intent(caller, project.id(), flow, intent, "Order pizza", null, 1000);
        base = "/v2.0/flows/" + flow + "/intents/" + intent + "/sentences";
        String[] texts = {"kilo pizza", "Alpha pizza", "juliet", "bravo pizza", "india", "charlie", "hotel", "delta",
                "golf", "echo", "foxtrot"};
        for (int i = 0; i < texts.length; i++) {
            String locale = i % 3 == 0 ? de : project.primaryLocaleId();
            Sentence sentence = new Sentence(Ids.newId(), texts[i], locale, 1000 + i / 2, 1000 + i / 2);
            seeded.add(sentence);
            position = sentence(caller, project.id(), flow, intent, sentence.id(), locale, sentence.text(),
                    sentence.createdAt());
        }
        // "hotel" is changed later
        Sentence hotel = seeded.get(6);
        seeded.set(6, new Sentence(hotel.id(), "Hotel room", hotel.locale(), hotel.createdAt(), 4000));
        position = append(intent, new SentenceUpdatedEvent(hotel.id(), intent, flow, project.id(), caller.organisationId(),
                hotel.locale(), List.of("text"), "Hotel room", caller.userId(), 4000));
    }

    private Map<String, Object> list(String query) {
        return get(base + "?" + query, caller, position);
    }

    private List<String> expected(List<Sentence> sentences, Function<Sentence, Comparable<?>> key, boolean ascending) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Comparator<Sentence> order = Comparator.comparing((Function) key);
        order = order.thenComparing(Sentence::id);
        if (!ascending) {
            order = order.reversed();
        }
        return sentences.stream().sorted(order).map(Sentence::id).toList();
    }

    private static Comparable<?> sortValue(Sentence sentence, String field) {
        return switch (field) {
            case "_id" -> sentence.id();
            case "text" -> sentence.text().toLowerCase(Locale.ROOT);
            case "localeReference" -> sentence.locale();
            case "createdAt" -> sentence.createdAt();
            case "lastChanged" -> sentence.lastChanged();
            default -> throw new IllegalArgumentException(field);
        };
    }

    @Test
    void givenSentences_whenListingWithoutParameters_thenCreationOrderInTheEnvelopeWithTheSentenceFields() {
        // when
        Map<String, Object> page = list("");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(11);
        assertThat(ids(page)).isEqualTo(expected(seeded, s -> s.createdAt(), true));
        Map<String, Object> hotel = items(page).stream().filter(s -> s.get("_id").equals(seeded.get(6).id()))
                .findFirst().orElseThrow();
        assertThat(hotel.keySet()).containsExactly("_id", "text", "localeReference", "createdAt", "lastChanged",
                "createdBy", "lastChangedBy");
        assertThat(hotel).containsEntry("text", "Hotel room").containsEntry("localeReference", de)
                .containsEntry("createdAt", 1003).containsEntry("lastChanged", 4000)
                .containsEntry("createdBy", caller.userId());
    }

    @Test
    void givenSentences_whenPagingWithLimitAndSkip_thenTheRightSlice() {
        // given
        List<String> all = ids(list("limit=100"));
        // when / then
        Map<String, Object> page = list("limit=4&skip=4");
        assertThat(ids(page)).isEqualTo(all.subList(4, 8));
        assertThat(page.get("total")).isEqualTo(11);
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(list("skip=20"))).isEmpty();
    }

    @Test
    void givenSentences_whenFiltering_thenACaseInsensitiveSubstringOfTheText() {
        // when / then
        assertThat(items(list("filter=PIZZA"))).extracting(s -> s.get("text"))
                .containsExactlyInAnyOrder("kilo pizza", "Alpha pizza", "bravo pizza");
        assertThat(list("filter=PIZZA").get("total")).isEqualTo(3);
        assertThat(items(list("filter=%25"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"text,asc", "text,desc", "localeReference,asc", "localeReference,desc", "createdAt,asc",
            "createdAt,desc", "lastChanged,asc", "lastChanged,desc", "_id,asc", "_id,desc"})
    void givenSentences_whenSortingByAField_thenThatOrderOnOnePageAndOverACursorWalkBothWays(String field,
                                                                                            String direction) {
        // given
        List<String> expected = expected(seeded, s -> sortValue(s, field), direction.equals("asc"));
        String sorted = base + "?sort=" + field + ":" + direction;
        // when / then
        assertThat(ids(get(sorted + "&limit=100", caller, position))).isEqualTo(expected);
        assertThat(walk(sorted + "&limit=3", caller, position)).isEqualTo(expected);
        assertThat(walkBack(sorted + "&limit=3", caller, position)).isEqualTo(expected);
    }

    @Test
    void givenTwoLocales_whenFilteringByLocaleId_thenOnlyThatLocalesSentencesInEveryOrderAndWalk() {
        // given
        List<Sentence> german = seeded.stream().filter(s -> s.locale().equals(de)).toList();
        // when / then
        Map<String, Object> page = list("localeId=" + de);
        assertThat(page.get("total")).isEqualTo(german.size());
        assertThat(ids(page)).isEqualTo(expected(german, s -> s.createdAt(), true));
        assertThat(ids(list("localeId=" + de + "&sort=text:desc")))
                .isEqualTo(expected(german, s -> sortValue(s, "text"), false));
        assertThat(walk(base + "?localeId=" + de + "&sort=lastChanged:asc&limit=2", caller, position))
                .isEqualTo(expected(german, s -> s.lastChanged(), true));
        assertThat(list("localeId=" + project.primaryLocaleId()).get("total")).isEqualTo(11 - german.size());
        assertThat(list("localeId=" + Ids.newId()).get("total")).isEqualTo(0);
        // A cursor of the German list does not continue the whole list.
        String next = (String) list("localeId=" + de + "&limit=1").get("nextCursor");
        problem(base + "?next=" + next, caller, position, 400);
    }

    @Test
    void givenTwoLocales_whenTheOfficialClientSendsPreferredLocaleId_thenOnlyThatLocalesSentences() {
        // given: the client's indexSentences names the locale preferredLocaleId
        List<Sentence> german = seeded.stream().filter(s -> s.locale().equals(de)).toList();
        // when
        Map<String, Object> page = list("preferredLocaleId=" + de);
        // then
        assertThat(page.get("total")).isEqualTo(german.size());
        assertThat(ids(page)).isEqualTo(expected(german, s -> s.createdAt(), true));
        assertThat(list("preferredLocaleId=" + de + "&localeId=" + de).get("total")).isEqualTo(german.size());
        Map<String, Object> both = problem(base + "?preferredLocaleId=" + de + "&localeId=" + project.primaryLocaleId(),
                caller, position, 400);
        assertThat((String) ((Map<String, Object>) both.get("details")).get("preferredLocaleId"))
                .contains("name different locales");
    }

    @Test
    void givenTheClientsIncludeFeedbackReport_whenListingSentences_thenFalseIsAPlainListAndTrueA400() {
        // when / then
        assertThat(list("includeFeedbackReport=false").get("total")).isEqualTo(11);
        Map<String, Object> problem = problem(base + "?includeFeedbackReport=true", caller, position, 400);
        assertThat((String) ((Map<String, Object>) problem.get("details")).get("includeFeedbackReport"))
                .contains("intent list");
    }

    @Test
    void givenASentenceList_whenAskedForEachMediaType_thenJsonHalXmlCsvOr406() {
        String uri = base + "?limit=2";
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$._links.self.href").isEqualTo("/new" + uri)
                .jsonPath("$._links.next.href").exists()
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h).startsWith("/new" + base + "/"));
        String xml = http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>11</total>");
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        String csv = http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")).hasSize(3);
        assertThat(csv.split("\r\n")[0]).isEqualTo("_id,text,localeReference,createdAt,lastChanged,createdBy,lastChangedBy");
        http.get().uri(uri).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"limit=0|limit", "limit=101|limit", "skip=-1|skip", "sort=name:asc|sort",
            "sort=text:sideways|sort", "next=short|next", "next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor", "localeId=short|localeId",
            "localeId=AAAAAAAAAAAAAAAAAAAAAAAA|localeId", "preferredLocaleId=short|preferredLocaleId",
            "includeFeedbackReport=yes|includeFeedbackReport"})
    void givenAMalformedParameter_whenListingSentences_then400NamingIt(String query, String parameter) {
        // when / then
        assertThat((Map<String, Object>) problem(base + "?" + query, caller, position, 400).get("details")).containsKey(parameter);
    }

    @Test
    void givenIntentsOutOfReach_whenListingTheirSentences_then404() {
        // given
        Caller stranger = newOrganisation();
        String otherFlow = newFlow(caller, project.id(), 1000);
        // when / then
        problem(base, stranger, position, 404);
        problem("/v2.0/flows/" + otherFlow + "/intents/" + intent + "/sentences", caller, position, 404);
        problem("/v2.0/flows/" + flow + "/intents/" + Ids.newId() + "/sentences", caller, position, 404);
        assertThat((Map<String, Object>) problem("/v2.0/flows/" + flow + "/intents/bad/sentences", caller, position, 400)
                .get("details")).containsKey("intentId");
    }

    @Test
    void givenASentence_whenReadAlone_thenItsRecordAnd404OutOfReach() {
        // given
        Sentence alpha = seeded.get(1);
        // when
        Map<String, Object> sentence = get(base + "/" + alpha.id(), caller, position);
        // then
        assertThat(sentence).containsEntry("_id", alpha.id()).containsEntry("text", "Alpha pizza")
                .containsEntry("localeReference", project.primaryLocaleId());
        problem(base + "/" + alpha.id(), newOrganisation(), position, 404);
        problem(base + "/" + Ids.newId(), caller, position, 404);
        problem("/v2.0/flows/" + flow + "/intents/" + Ids.newId() + "/sentences/" + alpha.id(), caller, position, 404);
        assertThat((Map<String, Object>) problem(base + "/x", caller, position, 400).get("details")).containsKey("sentenceId");
    }

    @Test
    void givenADeletedIntent_whenItsSentencesAreListed_then404AndTheyAreGone() {
        // when
        position = append(intent, new IntentDeletedEvent(intent, flow, project.id(), caller.organisationId(),
                caller.userId(), 5000));
        // then
        problem(base, caller, position, 404);
        problem(base + "/" + seeded.get(0).id(), caller, position, 404);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM sentence_view WHERE intent_id = ?", Integer.class, intent))
                .isZero();
    }
}
