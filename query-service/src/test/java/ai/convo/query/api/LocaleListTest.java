package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;

/** The list mechanics (limit, skip, filter, sort, cursors, media types, errors) on the locale list. */
class LocaleListTest extends QueryTestBase {

    private static final String[] LANGUAGES = {"de-DE", "en-US", "es-ES", "fr-FR", "ja-JP"};

    private Caller caller;
    private Project project;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Lists", 1000);
        // 11 more locales: names that sort differently from creation order, some equal timestamps (ties).
        String[] names = {"kilo", "alpha", "juliet", "bravo", "india", "charlie", "hotel", "delta", "golf", "echo", "fox_trot"};
        for (int i = 0; i < names.length; i++) {
            position = locale(caller, project.id(), Ids.newId(), names[i], LANGUAGES[i % LANGUAGES.length], 1000 + i / 2);
        }
        // The primary locale is renamed so every name is lowercase letters.
        position = append(project.id(), new LocaleUpdatedEvent(project.id(), caller.organisationId(),
                project.primaryLocaleId(), List.of("name"), "zulu", "en-US", true, null, caller.userId(), 2000));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(String query) {
        return http.get().uri("/v2.0/locales?projectId=" + project.id() + query)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }



    private List<Map<String, Object>> everything() {
        return items(get("&limit=100"));
    }

    private List<Object> walk(String query) {
        return ListPages.walk(this::get, query, 5);
    }

    @Test
    void theDefaultPageIsCreationOrderWithTheEnvelope() {
        Map<String, Object> page = get("");
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNull();
        assertThat(page.get("previousCursor")).isNull();
        List<Map<String, Object>> all = items(page);
        List<Map<String, Object>> expected = new ArrayList<>(all);
        expected.sort(Comparator.comparing((Map<String, Object> m) -> ((Number) m.get("createdAt")).longValue())
                .thenComparing(m -> (String) m.get("_id")));
        assertThat(all).isEqualTo(expected);
        assertThat(all.get(0).keySet()).containsExactly("_id", "referenceId", "name", "primary", "nluLanguage",
                "fallbackLocaleReference", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
    }

    @Test
    void limitAndSkip() {
        List<String> all = ids(get("&limit=100"));
        Map<String, Object> page = get("&limit=5&skip=5");
        assertThat(ids(page)).isEqualTo(all.subList(5, 10));
        assertThat(page.get("total")).isEqualTo(12);
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(get("&limit=5&skip=10"))).isEqualTo(all.subList(10, 12));
        assertThat(ids(get("&skip=50"))).isEmpty();
    }

    @Test
    void filterIsACaseInsensitiveSubstringOfTheNameWithWildcardsTakenLiterally() {
        Map<String, Object> page = get("&filter=LI");
        assertThat(items(page)).extracting(m -> m.get("name")).containsExactlyInAnyOrder("juliet", "charlie");
        assertThat(page.get("total")).isEqualTo(2);
        assertThat(items(get("&filter=_"))).extracting(m -> m.get("name")).containsExactly("fox_trot");
        assertThat(items(get("&filter=%25"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"name,asc", "name,desc", "nluLanguage,asc", "nluLanguage,desc", "primary,asc", "primary,desc",
            "referenceId,asc", "referenceId,desc", "fallbackLocaleReference,asc", "fallbackLocaleReference,desc",
            "createdAt,asc", "createdAt,desc", "lastChanged,asc", "lastChanged,desc", "_id,asc", "_id,desc"})
    void everySortFieldInBothDirections(String field, String direction) {
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        // And the same order when walked with cursors, 5 at a time.
        assertThat(walk("&limit=5&sort=" + field + ":" + direction)).isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }


    @Test
    void severalSortKeys() {
        List<Map<String, Object>> expected = new ArrayList<>(everything());
        expected.sort(Comparator.comparing((Map<String, Object> m) -> (String) m.get("nluLanguage"))
                .thenComparing(Comparator.comparing((Map<String, Object> m) -> (String) m.get("name")).reversed())
                .thenComparing(Comparator.comparing((Map<String, Object> m) -> (String) m.get("_id")).reversed()));
        assertThat(items(get("&limit=100&sort=nluLanguage:asc,name:desc"))).isEqualTo(expected);
    }


    @Test
    void previousTurnsBackExactly() {
        Map<String, Object> first = get("&limit=4&sort=name:asc");
        Map<String, Object> second = get("&limit=4&next=" + first.get("nextCursor"));
        Map<String, Object> third = get("&limit=4&next=" + second.get("nextCursor"));
        assertThat(third.get("nextCursor")).isNull();
        assertThat(ids(get("&limit=4&previous=" + third.get("previousCursor")))).isEqualTo(ids(second));
        Map<String, Object> back = get("&limit=4&previous=" + second.get("previousCursor"));
        assertThat(ids(back)).isEqualTo(ids(first));
        assertThat(back.get("previousCursor")).isNull();
        // Cursors are 24 characters of [a-z0-9], and the same boundary always gives the same cursor.
        assertThat((String) first.get("nextCursor")).matches("^[a-z0-9]{24}$");
        assertThat(get("&limit=4&sort=name:asc").get("nextCursor")).isEqualTo(first.get("nextCursor"));
    }

    @Test
    void aWalkSurvivesInsertsDeletesAndTheDeletionOfItsBoundary() {
        List<String> before = ids(get("&limit=100&sort=name:asc"));
        Map<String, Object> page = get("&limit=4&sort=name:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);

        // Meanwhile: the boundary row is deleted, a row is inserted before the cursor and one after it.
        append(project.id(), new LocaleDeletedEvent(project.id(), caller.organisationId(), boundary, caller.userId(), 3000));
        locale(caller, project.id(), Ids.newId(), "aaa", "de-DE", 3000);
        position = locale(caller, project.id(), Ids.newId(), "zzz", "de-DE", 3000);

        while (page.get("nextCursor") != null) {
            page = get("&limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        List<String> expectedRest = before.subList(4, before.size());
        assertThat(seen.subList(4, 4 + expectedRest.size())).isEqualTo(expectedRest);
        assertThat(seen).hasSize(before.size() + 1); // "zzz" was inserted ahead of the walk and is seen once
    }

    @Test
    void everyMediaTypeOfAList() {
        String base = "/v2.0/locales?projectId=" + project.id() + "&limit=3";
        http.get().uri(base).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$._links.self.href").isEqualTo("/new" + base)
                .jsonPath("$._links.next.href").value(h -> assertThat((String) h).contains("next=").doesNotContain("skip"))
                .jsonPath("$._links.previous").doesNotExist()
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h).startsWith("/new/v2.0/locales/"));
        String xml = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>12</total>", "<nextCursor>");
        String csv = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")).hasSize(4);
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "&limit=0|limit", "&limit=101|limit", "&limit=ten|limit", "&skip=-1|skip", "&sort=colour:asc|sort",
            "&sort=name:up|sort", "&sort=name,name|sort", "&next=short|next", "&next=aaaaaaaaaaaaaaaaaaaaaaaa&previous=aaaaaaaaaaaaaaaaaaaaaaaa|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip", "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor"})
    void badParametersAre400sNamingTheParameter(String query, String parameter) {
        http.get().uri("/v2.0/locales?projectId=" + project.id() + query).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void aCursorOnlyWorksOnTheListThatIssuedIt() {
        Project other = project(caller, "Other", 1);
        Map<String, Object> page = get("&limit=2");
        http.get().uri("/v2.0/locales?projectId=" + other.id() + "&next=" + page.get("nextCursor"))
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(other.position()))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("different list"));
        http.get().uri("/v2.0/locales?projectId=" + project.id() + "&sort=name:asc&next=" + page.get("nextCursor"))
                .header("X-API-Key", caller.apiKey()).exchange().expectStatus().isBadRequest();
    }

    @Test
    void theParentMustBeAVisibleProject() {
        Caller stranger = newOrganisation();
        http.get().uri("/v2.0/locales?projectId=" + project.id()).header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/locales?projectId=" + Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/locales?projectId=NOT").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
        // Without projectId: every locale of the caller's organisation, none of another.
        http.get().uri("/v2.0/locales?limit=100").header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
    }

    @Test
    void oneLocale() {
        Map<String, Object> expected = new LinkedHashMap<>(everything().get(0));
        http.get().uri("/v2.0/locales/{id}", expected.get("_id")).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectBody(Map.class).isEqualTo(expected);
        http.get().uri("/v2.0/locales/{id}", expected.get("_id")).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/locales/{id}", "x".repeat(25)).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest();
    }

    @Test
    void aReadWithAnEventPositionSeesThatWrite() {
        String id = Ids.newId();
        long written = locale(caller, project.id(), id, "fresh", "de-DE", 5000);
        http.get().uri("/v2.0/locales/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(written))
                .exchange().expectStatus().isOk()
                .expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody().jsonPath("$.name").isEqualTo("fresh");
        http.get().uri("/v2.0/locales/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", "soon").exchange().expectStatus().isBadRequest();
    }

    @Test
    void aProjectionKeepsTheOnePrimaryRuleVisible() {
        Set<Object> primaries = new HashSet<>();
        everything().forEach(m -> {
            if (Boolean.TRUE.equals(m.get("primary"))) {
                primaries.add(m.get("_id"));
            }
        });
        assertThat(primaries).containsExactly(project.primaryLocaleId());
    }
}
