package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static ai.convo.query.api.ListPages.sortedBy;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.testing.TestTokens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;

/**
 * The knowledge reads: GET /v2.0/knowledgestores[?projectId=], GET /v2.0/knowledgestores/{id}, and the sources
 * of a store with the full list mechanics (limit, skip, filter, sort, cursors, media types), plus tenancy.
 */
class KnowledgeListTest extends QueryTestBase {

    private Caller caller;
    private Project project;
    private Project second;
    private String storeId;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Knowledge", 1000);
        second = project(caller, "Second", 1000);
        storeId = Ids.newId();
        store(project, storeId, "Main", 1000);
        store(project, Ids.newId(), "beta manuals", 1001);
        position = store(second, Ids.newId(), "Other project", 1002);
        // 11 sources: names that sort differently from creation order, ties on createdAt, mixed types and chunks.
        String[] names = {"kilo", "alpha", "juliet", "bravo", "india", "charlie", "hotel", "delta", "golf", "echo", "fox_trot"};
        String[] types = {"manual", "pdf", "url", "ctxt"};
        for (int i = 0; i < names.length; i++) {
            String type = types[i % types.length];
            String status = type.equals("manual") || type.equals("ctxt") ? "ready" : "ingesting";
            position = source(Ids.newId(), names[i], type, status, i % 3, 1000 + i / 2);
        }
    }

    private long store(Project in, String id, String name, long at) {
        return append(id, new KnowledgeStoreCreatedEvent(id, in.id(), caller.organisationId(), UUID.randomUUID().toString(),
                name, "about " + name, "en-US", caller.userId(), at));
    }

    private long source(String id, String name, String type, String status, int chunks, long at) {
        return append(id, new KnowledgeSourceCreatedEvent(id, storeId, project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), name, "", type, status, chunks, List.of("t" + chunks),
                Map.of("text", name), caller.userId(), at));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(String query) {
        return http.get().uri("/v2.0/knowledgestores/" + storeId + "/sources?x=1" + query)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private List<Map<String, Object>> everything() {
        return items(get("&limit=100"));
    }

    // ---- stores

    @Test
    void givenStores_whenListedByProjectOrOrganisation_thenJsonInCreationOrderAndNothingOfAnotherOrganisation() {
        // given
        Caller stranger = newOrganisation();
        // when / then
        http.get().uri("/v2.0/knowledgestores?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$.total").isEqualTo(2)
                .jsonPath("$.items[0]._id").isEqualTo(storeId)
                .jsonPath("$.items[0].status").isEqualTo("ready")
                .jsonPath("$.items[0].language").isEqualTo("en-US")
                .jsonPath("$.items[0].projectReference").isEqualTo(project.id())
                .jsonPath("$.nextCursor").isEmpty();
        http.get().uri("/v2.0/knowledgestores?filter=MANUAL").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(1)
                .jsonPath("$.items[0].name").isEqualTo("beta manuals");
        http.get().uri("/v2.0/knowledgestores?sort=name:desc&limit=2").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(3)
                .jsonPath("$.items[0].name").isEqualTo("Other project").jsonPath("$.nextCursor").isNotEmpty();
        http.get().uri("/v2.0/knowledgestores").header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
        http.get().uri("/v2.0/knowledgestores?projectId=" + project.id()).header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores?projectId=bad").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
        http.get().uri("/v2.0/knowledgestores?sort=description:asc").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("_id, createdAt, language, lastChanged, name, referenceId"));
    }

    @Test
    void givenAStore_whenReadById_thenTheRecordAndOtherOrganisationsGet404() {
        // given / when / then
        http.get().uri("/v2.0/knowledgestores/{id}", storeId).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(Map.class).value(store -> assertThat(store.keySet()).containsExactly("_id", "referenceId",
                        "name", "description", "language", "status", "projectReference", "createdAt", "lastChanged",
                        "createdBy", "lastChangedBy"));
        http.get().uri("/v2.0/knowledgestores/{id}", storeId).header("X-API-Key", newOrganisation().apiKey()).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.logLevel").exists();
        http.get().uri("/v2.0/knowledgestores/{id}", "short").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.knowledgeStoreId").exists();
    }

    @Test
    void givenAStoreRenamed_whenReadByIdAndListed_thenTheNewNameDescriptionAndLastChange() {
        // given
        Caller editor = colleague(caller);
        long at = append(storeId, new KnowledgeStoreUpdatedEvent(storeId, project.id(), caller.organisationId(),
                List.of("name", "description"), "Handbooks", "All of them", editor.userId(), 3000));
        // when / then
        http.get().uri("/v2.0/knowledgestores/{id}", storeId).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(at)).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.name").isEqualTo("Handbooks")
                .jsonPath("$.description").isEqualTo("All of them")
                .jsonPath("$.lastChanged").isEqualTo(3000)
                .jsonPath("$.lastChangedBy").isEqualTo(editor.userId())
                .jsonPath("$.createdAt").isEqualTo(1000);
        http.get().uri("/v2.0/knowledgestores?filter=handbooks").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(1)
                .jsonPath("$.items[0]._id").isEqualTo(storeId);
    }

    // ---- sources

    @Test
    void givenSources_whenListed_thenJsonInCreationOrderWithTheEnvelopeAndTheFullRecords() {
        // given / when
        Map<String, Object> page = get("&limit=5");
        // then
        assertThat(page.keySet()).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(page.get("total")).isEqualTo(11);
        assertThat(items(page)).hasSize(5);
        assertThat(items(page).get(0).keySet()).containsExactly("_id", "referenceId", "name", "description", "type",
                "status", "chunkCount", "metaData", "data", "storeReference", "createdAt", "lastChanged", "createdBy",
                "lastChangedBy");
        // kilo and alpha tie on createdAt, so either may come first (ties go by _id)
        assertThat(items(page).subList(0, 2)).extracting(item -> item.get("name")).containsExactlyInAnyOrder("kilo", "alpha");
        Map<String, Object> kilo = items(page).stream().filter(item -> "kilo".equals(item.get("name"))).findFirst().orElseThrow();
        assertThat(kilo).containsEntry("name", "kilo").containsEntry("status", "ready")
                .containsEntry("metaData", Map.of("tags", List.of("t0"))).containsEntry("data", Map.of("text", "kilo"))
                .containsEntry("storeReference", storeId);
        assertThat(items(get("&limit=100"))).isEqualTo(sortedBy(everything(), "createdAt", true));
    }

    @Test
    void givenSources_whenPagedFilteredAndWalked_thenTheRightSlices() {
        // given
        List<String> all = ids(get("&limit=100"));
        // when / then
        assertThat(ids(get("&limit=5&skip=5"))).isEqualTo(all.subList(5, 10));
        assertThat(ids(get("&skip=50"))).isEmpty();
        assertThat(items(get("&filter=LI"))).extracting(m -> m.get("name")).containsExactlyInAnyOrder("juliet", "charlie");
        assertThat(items(get("&filter=_"))).extracting(m -> m.get("name")).containsExactly("fox_trot");
        assertThat(ListPages.walk(this::get, "&limit=4", 4)).isEqualTo(new ArrayList<Object>(all));
    }

    @ParameterizedTest
    @CsvSource({"name,asc", "name,desc", "type,asc", "type,desc", "status,asc", "status,desc", "chunkCount,asc",
            "chunkCount,desc", "createdAt,desc", "lastChanged,asc", "referenceId,asc", "_id,desc"})
    void givenSources_whenSortedByAnyFieldInEitherDirection_thenPagesAndCursorWalksFollowThatOrder(String field,
                                                                                                   String direction) {
        // given
        List<Map<String, Object>> expected = sortedBy(everything(), field, direction.equals("asc"));
        // when / then
        assertThat(items(get("&limit=100&sort=" + field + ":" + direction))).isEqualTo(expected);
        assertThat(ListPages.walk(this::get, "&limit=4&sort=" + field + ":" + direction, 4))
                .isEqualTo(expected.stream().map(m -> m.get("_id")).toList());
    }

    @Test
    void givenACursorWalk_whenASourceIsInsertedAndTheBoundaryDeleted_thenNothingRepeatsOrVanishes() {
        // given
        List<String> before = ids(get("&limit=100&sort=name:asc"));
        Map<String, Object> page = get("&limit=4&sort=name:asc");
        List<String> seen = new ArrayList<>(ids(page));
        String boundary = seen.get(seen.size() - 1);
        // when
        append(boundary, new KnowledgeSourceDeletedEvent(boundary, storeId, project.id(), caller.organisationId(),
                caller.userId(), 3000));
        position = source(Ids.newId(), "zzz", "manual", "ready", 0, 3000);
        while (page.get("nextCursor") != null) {
            page = get("&limit=4&next=" + page.get("nextCursor"));
            seen.addAll(ids(page));
        }
        // then
        assertThat(new HashSet<>(seen)).hasSize(seen.size());
        assertThat(seen.subList(4, before.size())).isEqualTo(before.subList(4, before.size()));
        assertThat(seen).hasSize(before.size() + 1);
    }

    @Test
    void givenSources_whenAskedForEachMediaType_thenJsonByDefaultHalXmlCsvAnd406Otherwise() {
        // given
        String base = "/v2.0/knowledgestores/" + storeId + "/sources?limit=3";
        // when / then
        http.get().uri(base).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("*/*")).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON);
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("application/hal+json"))
                .exchange().expectStatus().isOk().expectBody().jsonPath("$._links.next.href").exists()
                .jsonPath("$.items[0]._links.self.href").value(h -> assertThat((String) h)
                        .startsWith("/new/v2.0/knowledgestores/" + storeId + "/sources/"));
        String xml = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).contains("<total>11</total>", "<chunkCount>", "<metaData><tags>", "<data><text>");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_XML)
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);
        String csv = http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv.split("\r\n")).hasSize(4);
        assertThat(csv.split("\r\n")[0]).startsWith("_id,referenceId,name,description,type,status,chunkCount,metaData,data");
        http.get().uri(base).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_PDF)
                .exchange().expectStatus().isEqualTo(406);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"&limit=0|limit", "&limit=101|limit", "&skip=-1|skip", "&sort=data:asc|sort",
            "&sort=name:up|sort", "&next=short|next", "&next=aaaaaaaaaaaaaaaaaaaaaaaa&skip=2|skip",
            "&next=aaaaaaaaaaaaaaaaaaaaaaaa|cursor"})
    void givenABadParameter_whenListingSources_then400NamingIt(String query, String parameter) {
        // given / when / then
        http.get().uri("/v2.0/knowledgestores/" + storeId + "/sources?x=1" + query).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details." + parameter).exists();
    }

    @Test
    void givenASource_whenReadByIdUnderItsStoreOnly_thenTheListItemElse404Or400() {
        // given
        Map<String, Object> expected = everything().get(0);
        Object id = expected.get("_id");
        String otherStore = Ids.newId();
        position = store(project, otherStore, "Elsewhere", 1000);
        // when / then
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, id).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectBody(Map.class).isEqualTo(expected);
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", otherStore, id).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, id).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, "BAD").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.sourceId").exists();
        http.get().uri("/v2.0/knowledgestores/{s}/sources", "BAD").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.knowledgeStoreId").exists();
        http.get().uri("/v2.0/knowledgestores/{s}/sources", storeId).header("X-API-Key", newOrganisation().apiKey())
                .exchange().expectStatus().isNotFound();
    }

    @Test
    void givenAnIngestingSource_whenIngestionEndsAndAClientPatches_thenTheReadsFollowEachStatus() {
        // given
        String ok = Ids.newId();
        String bad = Ids.newId();
        source(ok, "doc", "pdf", "ingesting", 0, 4000);
        source(bad, "empty", "url", "ingesting", 0, 4000);
        // when
        append(ok, new KnowledgeSourceIngestedEvent(ok, storeId, project.id(), caller.organisationId(), 7, 4001));
        append(bad, new KnowledgeSourceIngestionFailedEvent(bad, storeId, project.id(), caller.organisationId(), "none", 4001));
        position = append(ok, new KnowledgeSourceUpdatedEvent(ok, storeId, project.id(), caller.organisationId(),
                List.of("status", "metaData.tags"), "doc", "", "disabled", 7, List.of("new"), Map.of("text", "doc"),
                caller.userId(), 4002));
        // then
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, ok).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("disabled").jsonPath("$.chunkCount").isEqualTo(7)
                .jsonPath("$.metaData.tags[0]").isEqualTo("new").jsonPath("$.lastChanged").isEqualTo(4002)
                .jsonPath("$.metaData.failReason").doesNotExist();
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, bad).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("failure").jsonPath("$.chunkCount").isEqualTo(0)
                .jsonPath("$.metaData.failReason").isEqualTo("none");
    }

    @Test
    void givenADeletedStoreOrProject_whenTheirSourcesAreListedOrRead_thenTheyAreGoneForGood() {
        // given
        String sourceId = ids(get("&limit=1")).get(0);
        // when
        long deleted = append(storeId, new KnowledgeStoreDeletedEvent(storeId, project.id(), caller.organisationId(),
                caller.userId(), 9000));
        // a source event that commits after its store's deletion must not resurrect a row
        String late = Ids.newId();
        deleted = Math.max(deleted, source(late, "late", "manual", "ready", 0, 9001));
        // then
        http.get().uri("/v2.0/knowledgestores/{s}/sources", storeId).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(deleted)).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, sourceId).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores/{s}", storeId).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM knowledge_source_view WHERE store_id = ?", Long.class, storeId))
                .isZero();
        // and a project's deletion takes its stores
        long projectGone = append(project.id(), new ProjectDeletedEvent(project.id(), caller.organisationId(),
                caller.userId(), 9100));
        http.get().uri("/v2.0/knowledgestores").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(projectGone)).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(1).jsonPath("$.items[0].name").isEqualTo("Other project");
    }

    @Test
    void givenTheReads_whenCalledWithABearerTokenOrNothing_thenBearerIsAcceptedAndNothingIs401() {
        // given / when / then
        http.get().uri("/v2.0/knowledgestores/{s}/sources", storeId)
                .header("Authorization", "Bearer " + TestTokens.bearer(caller.userId()))
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk();
        http.get().uri("/v2.0/knowledgestores").exchange().expectStatus().isUnauthorized();
    }
}
