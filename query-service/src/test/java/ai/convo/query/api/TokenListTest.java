package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.token.DefaultTokens;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * The specification's token list, GET /v2.0/projects/{projectId}/snippets, and the token read by id: list
 * parameters, sort fields, cursors, media types, tenancy, authentication schemes and the default tokens.
 */
class TokenListTest extends QueryTestBase {

    private static final String[] TYPES = {"profile", "input", "context", "custom", "answer", "flow-output", "flow-input"};

    @Autowired
    EventProcessingConfiguration processing;

    private Caller caller;
    private Project project;
    private String otherUser;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        otherUser = Ids.newId();
        project = project(caller, "Tokens", 1000);
        // 11 custom tokens: labels that sort differently from creation order, some equal timestamps (ties),
        // two creators, one script that a spreadsheet would run.
        String[] labels = CREATED;
        for (int i = 0; i < labels.length; i++) {
            String script = i == 3 ? "=cmd()" : "input.s" + (char) ('a' + (i * 7) % 11);
            position = token(Ids.newId(), labels[i], TYPES[i % TYPES.length], script, i % 3 == 0 ? otherUser : caller.userId(),
                    1000 + i / 2);
        }
    }

    /** Labels of the custom tokens, in the order they are created (pairs share a createdAt second). */
    private static final String[] CREATED =
            {"kilo", "alpha", "juliet", "bravo", "india", "charlie", "hotel", "delta", "golf", "echo", "fox_trot"};

    private long token(String id, String label, String type, String script, String by, long at) {
        return append(id, new TokenCreatedEvent(id, project.id(), caller.organisationId(), UUID.randomUUID().toString(),
                label, type, script, by, at));
    }

    private String path() {
        return "/v2.0/projects/" + project.id() + "/snippets";
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(String query) {
        return http.get().uri(path() + "?" + query.replaceFirst("^&", ""))
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
        return ListPages.walk(this::get, query, 4);
    }

    @Test
    void givenCustomAndDefaultTokens_whenListed_thenOnlyCustomTokensInCreationOrderWithTheEnvelope() {
        // given: 11 custom tokens and the project's default tokens
        // when
        Map<String, Object> page = get("");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(11);
        assertThat(page.get("nextCursor")).isNull();
        assertThat(page.get("previousCursor")).isNull();
        List<Map<String, Object>> all = items(page);
        List<Map<String, Object>> expected = new ArrayList<>(all);
        expected.sort(Comparator.comparing((Map<String, Object> m) -> ((Number) m.get("createdAt")).longValue())
                .thenComparing(m -> (String) m.get("_id")));
        assertThat(all).isEqualTo(expected);
        // Ids are time-ordered, so tokens made in the same second still list in the order they were made.
        assertThat(all).extracting(m -> m.get("label")).containsExactly((Object[]) CREATED);
        assertThat(all.get(0).keySet()).containsExactly("_id", "label", "type", "script", "referenceId", "createdAt",
                "lastChanged", "createdBy", "lastChangedBy");
        List<String> defaults = DefaultTokens.forProject(project.id(), caller.userId(), 1000).stream()
                .map(t -> t.id()).toList();
        assertThat(ids(page)).doesNotContainAnyElementsOf(defaults);
        assertThat(items(get("&filter=name"))).isEmpty();
    }

    @Test
    void givenADefaultToken_whenReadById_thenItExistsWithItsBuiltInValues() {
        // given
        String id = DefaultTokens.idFor(project.id(), "First Name");
        // when / then
        http.get().uri(path() + "/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$._id").isEqualTo(id)
                .jsonPath("$.label").isEqualTo("First Name")
                .jsonPath("$.type").isEqualTo("profile")
                .jsonPath("$.script").isEqualTo("profile.firstname")
                .jsonPath("$.referenceId").isEqualTo(DefaultTokens.referenceIdFor(project.id(), "First Name"))
                .jsonPath("$.createdAt").isEqualTo(1000)
                .jsonPath("$.createdBy").isEqualTo(caller.userId());
        // Another project's path does not reach it.
        Project other = project(caller, "Other", 1);
        http.get().uri("/v2.0/projects/{p}/snippets/{id}", other.id(), id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(other.position())).exchange().expectStatus().isNotFound();
    }

    @Test
    void givenACustomToken_whenReadById_thenItIsTheListItem() {
        // given
        Map<String, Object> expected = everything().get(0);
        // when / then
        http.get().uri(path() + "/{id}", expected.get("_id")).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody(Map.class).isEqualTo(expected);
        http.get().uri(path() + "/{id}", expected.get("_id")).header("X-API-Key", newOrganisation().apiKey()).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.logLevel").exists();
        http.get().uri(path() + "/{id}", Ids.newId()).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri(path() + "/{id}", "x".repeat(25)).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.snippetId").exists();
        http.get().uri(path() + "/{id}", expected.get("_id")).header("X-API-Key", caller.apiKey())
                .accept(MediaType.APPLICATION_XML).exchange()
                .expectStatus().isOk().expectBody(String.class)
                .value(xml -> assertThat(xml).startsWith("<token><_id>" + expected.get("_id") + "</_id>"));
    }

    @Test
    void givenAWrite_whenReadWithItsEventPosition_thenTheReadSeesIt() {
        // given
        String id = Ids.newId();
        long written = token(id, "fresh", "custom", "x", caller.userId(), 5000);
        // when / then
        http.get().uri(path() + "/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(written)).exchange()
                .expectStatus().isOk().expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody().jsonPath("$.label").isEqualTo("fresh");
        long updated = append(id, new TokenUpdatedEvent(id, project.id(), caller.organisationId(), List.of("script"),
                "fresh", "custom", "y", otherUser, 6000));
        http.get().uri(path() + "/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(updated)).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.script").isEqualTo("y")
                .jsonPath("$.lastChanged").isEqualTo(6000).jsonPath("$.lastChangedBy").isEqualTo(otherUser);
        long deleted = append(id, new TokenDeletedEvent(id, project.id(), caller.organisationId(), otherUser, 7000));
        http.get().uri(path() + "/{id}", id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(deleted)).exchange().expectStatus().isNotFound();
    }

    @Test
    void givenElevenTokens_whenPagedWithLimitAndSkip_thenTheRightSlices() {
        // given
        List<String> all = ids(get("&limit=100"));
        // when
        Map<String, Object> page = get("&limit=5&skip=5");
        // then
        assertThat(ids(page)).isEqualTo(all.subList(5, 10));
        assertThat(page.get("total")).isEqualTo(11);
        assertThat(page.get("nextCursor")).isNotNull();
        assertThat(page.get("previousCursor")).isNotNull();
        assertThat(ids(get("&limit=5&skip=10"))).isEqualTo(all.subList(10, 11));
        assertThat(ids(get("&skip=50"))).isEmpty();
        assertThat(items(get(""))).hasSize(11);
        assertThat(items(get("&limit=1"))).hasSize(1);
    }

    @Test
    void givenLabels_whenFiltered_thenACaseInsensitiveSubstringOfTheLabelWithWildcardsTakenLiterally() {
        // given / when
        Map<String, Object> page = get("&filter=LI");
        // then
        assertThat(items(page)).extracting(m -> m.get("label")).containsExactlyInAnyOrder("juliet", "charlie");
        assertThat(page.get("total")).isEqualTo(2);
        assertThat(items(get("&filter=_"))).extracting(m -> m.get("label")).containsExactly("fox_trot");
        assertThat(items(get("&filter=%25"))).isEmpty();
        // filter matches the label only, not the script
        assertThat(items(get("&filter=input.s"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"label,asc", "label,desc", "type,asc", "type,desc", "script,asc", "script,desc",
            "referenceId,asc", "referenceId,desc", "createdAt,asc", "createdAt,desc", "lastChanged,asc",
            "lastChanged,desc", "createdBy,asc", "createdBy,desc", "lastChangedBy,asc", "lastChangedBy,desc",
            "_id,asc", "_id,desc"})
    void givenElevenTokens_whenSortedByAnyFieldInEitherDirection_thenPagesAndCursorWalksFollowThatOrder(
            String field, String direction) {
        // given
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        // when / then
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        assertThat(walk("&limit=4&sort=" + field + ":" + direction)).isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }


    @Test
    void givenSeveralSortKeys_whenSorted_thenEachKeyBreaksTheTiesOfThePrevious() {
        // given
        List<Map<String, Object>> expected = new ArrayList<>(everything());
        expected.sort(Comparator.comparing((Map<String, Object> m) -> (String) m.get("createdBy"))
                .thenComparing(Comparator.comparing((Map<String, Object> m) -> (String) m.get("label")).reversed())
                .thenComparing(Comparator.comparing((Map<String, Object> m) -> (String) m.get("_id")).reversed()));
        // when / then
        assertThat(items(get("&limit=100&sort=createdBy:asc,label:desc"))).isEqualTo(expected);
    }


    @Test
    void givenACursorWalk_whenTurningBack_thenPreviousPagesAreExactlyTheSame() {
        // given
        Map<String, Object> first = get("&limit=4&sort=label:asc");
        Map<String, Object> second = get("&limit=4&next=" + first.get("nextCursor"));
        Map<String, Object> third = get("&limit=4&next=" + second.get("nextCursor"));
        assertThat(third.get("nextCursor")).isNull();
        // when / then
        assertThat(ids(get("&limit=4&previous=" + third.get("previousCursor")))).isEqualTo(ids(second));
        Map<String, Object> back = get("&limit=4&previous=" + second.get("previousCursor"));
        assertThat(ids(back)).isEqualTo(ids(first));
        assertThat(back.get("previousCursor")).isNull();
        assertThat((String) first.get("nextCursor")).matches("^[a-z0-9]{24}$");
        assertThat(get("&limit=4&sort=label:asc").get("nextCursor")).isEqualTo(first.get("nextCursor"));
    }

    @Test
    void givenACursorWalk_whenTokensAreInsertedAndTheBoundaryDeleted_thenNothingRepeatsOrVanishes() {
        // given
        List<String> before = ids(get("&limit=100&sort=label:asc"));
        Map<String, Object> page = get("&limit=4&sort=label:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);
        // when
        append(boundary, new TokenDeletedEvent(boundary, project.id(), caller.organisationId(), caller.userId(), 3000));
        token(Ids.newId(), "aaa", "custom", "x", caller.userId(), 3000);
        position = token(Ids.newId(), "zzz", "custom", "x", caller.userId(), 3000);
        while (page.get("nextCursor") != null) {
            page = get("&limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        // then
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        List<String> expectedRest = before.subList(4, before.size());
        assertThat(seen.subList(4, 4 + expectedRest.size())).isEqualTo(expectedRest);
        assertThat(seen).hasSize(before.size() + 1);
    }

    @Test
    void givenAList_whenAskedForEachMediaType_thenJsonHalXmlAndCsvAnd406Otherwise() {
        // given
        String base = path() + "?limit=3";
        // when / then
        http.get().uri(base).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$._links").doesNotExist();
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("application/hal+json"))
                .exchange().expectStatus().isOk().expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$._links.self.href").isEqualTo("/new" + base)
                .jsonPath("$._links.next.href").value(h -> assertThat((String) h).contains("next="))
                .jsonPath("$._links.previous").doesNotExist()
                .jsonPath("$.items[0]._links.self.href")
                .value(h -> assertThat((String) h).startsWith("/new" + path() + "/"));
        String xml = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<list><items><item><_id>").contains("<total>11</total>", "<nextCursor>", "<label>");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        String csv = http.get().uri(path() + "?limit=100&sort=label:asc").header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("text/csv")).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith("text/csv")
                .expectBody(String.class).returnResult().getResponseBody();
        String[] lines = csv.split("\r\n");
        assertThat(lines).hasSize(12);
        assertThat(lines[0]).isEqualTo("_id,label,type,script,referenceId,createdAt,lastChanged,createdBy,lastChangedBy");
        assertThat(csv).contains("'=cmd()").doesNotContain(",=cmd()");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "&limit=0|limit", "&limit=101|limit", "&limit=ten|limit", "&skip=-1|skip", "&sort=name:asc|sort",
            "&sort=label:up|sort", "&sort=label,label|sort", "&next=short|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&previous=aaaaaaaaaaaaaaaaaaaaaaaa|next",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip", "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor"})
    void givenABadParameter_whenListing_then400NamingIt(String query, String parameter) {
        // given / when / then
        http.get().uri(path() + "?" + query.replaceFirst("^&", "")).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void givenAnUnknownSortField_whenListing_thenThe400ListsTheSortableFields() {
        // given / when / then
        http.get().uri(path() + "?sort=colour:asc").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("_id, createdAt, createdBy, label, lastChanged, lastChangedBy, referenceId, script, type"));
    }

    @Test
    void givenACursorOfAnotherProjectsList_whenUsed_then400() {
        // given
        Project other = project(caller, "Other", 1);
        Map<String, Object> page = get("&limit=2");
        // when / then
        http.get().uri("/v2.0/projects/{p}/snippets?next=" + page.get("nextCursor"), other.id())
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(other.position()))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("different list"));
    }

    @Test
    void givenAnotherOrganisation_whenItListsOrReadsThisProjectsTokens_then404() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        http.get().uri(path()).header("X-API-Key", stranger.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        http.get().uri(path() + "/{id}", DefaultTokens.idFor(project.id(), "Context")).header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/projects/{p}/snippets", Ids.newId()).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/projects/{p}/snippets", "NOT-AN-ID").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
    }

    @Test
    void givenADeletedProject_whenItsTokensAreListedOrRead_then404() {
        // given
        String tokenId = ids(get("&limit=1")).get(0);
        // when
        long deleted = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(),
                caller.userId(), 9000));
        // then
        http.get().uri(path()).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(deleted))
                .exchange().expectStatus().isNotFound();
        http.get().uri(path() + "/{id}", tokenId).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri(path() + "/{id}", DefaultTokens.idFor(project.id(), "Context")).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        Integer rows = jdbc.queryForObject("SELECT count(*) FROM token_view WHERE project_id = ?", Integer.class,
                project.id());
        assertThat(rows).isZero();
    }

    @Test
    void givenTheSpecsSchemes_whenListing_thenApiKeysAndContactCenterTokensWorkAndBasicOrBearerDoNot() {
        // given
        String basic = "Basic " + Base64.getEncoder().encodeToString((caller.userId() + "@example.com:pw-"
                + caller.userId()).getBytes(StandardCharsets.UTF_8));
        // when / then
        http.get().uri(path() + "?api_key=" + caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(11);
        http.get().uri(path()).header("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(caller.userId()))
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(11);
        http.get().uri(path()).header("Authorization", basic).exchange().expectStatus().isUnauthorized();
        http.get().uri(path()).header("Authorization", "Bearer " + TestTokens.bearer(caller.userId())).exchange()
                .expectStatus().isUnauthorized();
        http.get().uri(path()).exchange().expectStatus().isUnauthorized();
        // The read by id takes the default schemes, Basic included.
        http.get().uri(path() + "/{id}", DefaultTokens.idFor(project.id(), "Context")).header("Authorization", basic)
                .exchange().expectStatus().isOk();
    }

    @Test
    void givenTheProjection_whenItsSequencingPolicyIsAsked_thenAProjectsEventsShareOneSequence() {
        // given
        String token = Ids.newId();
        var policy = processing.sequencingPolicy(ai.convo.query.token.TokenProjection.GROUP);
        // when
        Object key = policy.getSequenceIdentifierFor(new GenericDomainEventMessage<>(
                "Any", token, 0, new TokenCreatedEvent(token, project.id(), caller.organisationId(), "r", "l", "custom", "s", caller.userId(), 1)));
        Object deletion = policy.getSequenceIdentifierFor(new GenericDomainEventMessage<>(
                "Any", project.id(), 5, new ProjectDeletedEvent(project.id(), caller.organisationId(), caller.userId(), 1)));
        // then: the project, not the aggregate, so the project's deletion is never applied before its contents
        assertThat(key).isEqualTo(project.id()).isEqualTo(deletion);
    }
}
