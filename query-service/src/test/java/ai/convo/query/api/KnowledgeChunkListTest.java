package ai.convo.query.api;

import static ai.convo.query.api.ListPages.items;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.http.media.Renderer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

/**
 * The official client's indexKnowledgeChunks and readKnowledgeChunk: chunks of a source in their order with the list
 * mechanics, the client's whitespace before the query string, the source's chunk count, history, asOf, the audit
 * trail and tenancy.
 */
class KnowledgeChunkListTest extends QueryTestBase {

    private Caller caller;
    private String projectId;
    private String storeId;
    private String sourceId;
    private final String[] chunkIds = new String[5];
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        projectId = project(caller, "Chunks", 1000).id();
        storeId = Ids.newId();
        sourceId = Ids.newId();
        append(storeId, new KnowledgeStoreCreatedEvent(storeId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "FAQ", "", "en-US", caller.userId(), 1000));
        append(sourceId, new KnowledgeSourceCreatedEvent(sourceId, storeId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "Manual", "", "manual", "ready", 0, List.of(), Map.of(), caller.userId(),
                1000));
        // created in this order, placed in another: orders 4, 0, 3, 1, 2
        int[] orders = {4, 0, 3, 1, 2};
        for (int i = 0; i < orders.length; i++) {
            chunkIds[i] = Ids.newId();
            position = append(sourceId, created(chunkIds[i], orders[i], "Chunk number " + orders[i], i + 1, 1000 + i));
        }
    }

    private KnowledgeChunkCreatedEvent created(String id, int order, String text, int count, long at) {
        return new KnowledgeChunkCreatedEvent(id, sourceId, storeId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), order, text, false, Map.of("page", order), count, caller.userId(), at);
    }

    private String chunks() {
        return "/v2.0/knowledgestores/" + storeId + "/sources/" + sourceId + "/chunks";
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(Caller who, String uri) {
        return http.get().uri(uri).header("X-API-Key", who.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
    }

    private static List<Object> texts(Map<String, Object> page) {
        return items(page).stream().map(item -> item.get("text")).toList();
    }

    @Test
    void givenChunksCreatedOutOfOrder_whenListed_thenInTheirOrderWithTheListMechanics() {
        // given: five chunks (seed)
        // when
        Map<String, Object> all = get(caller, chunks());
        Map<String, Object> first = get(caller, chunks() + "?limit=2");
        Map<String, Object> next = get(caller, chunks() + "?limit=2&next=" + first.get("nextCursor"));
        Map<String, Object> filtered = get(caller, chunks() + "?filter=ber 3");
        Map<String, Object> newest = get(caller, chunks() + "?sort=createdAt:desc&limit=1");
        // then
        assertThat(all.get("total")).isEqualTo(5);
        assertThat(texts(all)).containsExactly("Chunk number 0", "Chunk number 1", "Chunk number 2", "Chunk number 3",
                "Chunk number 4");
        assertThat(items(all).get(0)).containsEntry("order", 0).containsEntry("disabled", false)
                .containsEntry("data", Map.of("page", 0)).containsEntry("sourceReference", sourceId)
                .containsEntry("storeReference", storeId).containsEntry("projectReference", projectId)
                .containsEntry("organisationReference", caller.organisationId());
        assertThat(texts(first)).containsExactly("Chunk number 0", "Chunk number 1");
        assertThat(texts(next)).containsExactly("Chunk number 2", "Chunk number 3");
        assertThat(texts(filtered)).containsExactly("Chunk number 3");
        assertThat(texts(newest)).containsExactly("Chunk number 2");
        http.get().uri(chunks() + "?sort=text:asc").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.detail")
                .value(d -> assertThat(d.toString()).contains("_id, createdAt, lastChanged, order"));
        // the source counts them
        assertThat(get(caller, "/v2.0/knowledgestores/" + storeId + "/sources/" + sourceId).get("chunkCount"))
                .isEqualTo(5);
    }

    @Test
    void givenTheClientsNewlineAndTabsBeforeTheQuery_whenListed_thenTheFirstParameterIsStillRead() throws Exception {
        // given: the official client's URL, "chunks?\n\t\t\t\tlimit=2&skip=1", as it leaves the client encoded
        String url = "http://localhost:" + environment.getProperty("local.server.port") + "/new" + chunks()
                + "?%0A%09%09%09%09limit=2&skip=1";
        // when
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position)).build(),
                HttpResponse.BodyHandlers.ofString());
        // then
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> page = Renderer.JSON.readValue(response.body(), new TypeReference<Map<String, Object>>() { });
        assertThat(texts(page)).containsExactly("Chunk number 1", "Chunk number 2");
        // a bad first parameter is still named in the 400, without its whitespace
        HttpResponse<String> bad = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                url.replace("limit=2", "limit=0"))).header("X-API-Key", caller.apiKey()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("limit must be an integer from 1 to 100");
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAChunkChangedAndDeleted_whenItsHistoryAndAsOfAreRead_thenEveryVersionWithItsAuthor() {
        // given
        String id = chunkIds[1];
        String path = chunks() + "/" + id;
        Caller editor = colleague(caller);
        Map<String, Object> before = get(caller, path);
        long beforeAt = jdbc.queryForObject("SELECT max(position) FROM event_log WHERE organisation_id = ?", Long.class,
                caller.organisationId());
        position = append(sourceId, new KnowledgeChunkUpdatedEvent(id, sourceId, storeId, projectId,
                caller.organisationId(), List.of("text", "disabled"), 0, "Edited", true, Map.of("page", 0),
                editor.userId(), 2000));
        Map<String, Object> after = get(caller, path);
        position = append(sourceId, new KnowledgeChunkDeletedEvent(id, sourceId, storeId, projectId,
                caller.organisationId(), 4, editor.userId(), 3000));
        // when
        List<Map<String, Object>> history = items(get(caller, path + "/history"));
        // then
        assertThat(after).containsEntry("text", "Edited").containsEntry("disabled", true)
                .containsEntry("lastChangedBy", editor.userId());
        assertThat(history).extracting(h -> h.get("type")).containsExactly("KnowledgeChunkCreated",
                "KnowledgeChunkUpdated", "KnowledgeChunkDeleted");
        assertThat(history).extracting(h -> h.get("userReference")).containsExactly(caller.userId(), editor.userId(),
                editor.userId());
        assertThat((Map<String, Object>) history.get(1).get("payload")).containsEntry("text", "Edited");
        assertThat(get(caller, path + "?asOf=" + beforeAt)).isEqualTo(before);
        long editedAt = ((Number) history.get(1).get("position")).longValue();
        assertThat(get(caller, path + "?asOf=" + editedAt)).isEqualTo(after);
        http.get().uri(path).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        assertThat(get(caller, "/v2.0/knowledgestores/" + storeId + "/sources/" + sourceId).get("chunkCount"))
                .isEqualTo(4);
        // the audit trail names the chunk under its store and source, and who deleted it
        List<Map<String, Object>> audit = items(get(caller, "/v2.0/auditevents?limit=100"));
        assertThat(audit).anySatisfy(event -> assertThat(event).containsEntry("type", "delete")
                .containsEntry("userReference", editor.userId())
                .extracting(e -> e.get("chain")).asList().contains(Map.of("elementType", "knowledgeStore",
                        "elementId", storeId), Map.of("elementType", "knowledgeSource", "elementId", sourceId),
                        Map.of("elementType", "knowledgeChunk", "elementId", id)));
    }

    @Test
    void givenAnotherOrganisationOrAnotherStore_whenChunksAreRead_then404AndNothingOfTheirs() {
        // given
        Caller stranger = newOrganisation();
        String otherStore = Ids.newId();
        position = append(otherStore, new KnowledgeStoreCreatedEvent(otherStore, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "Other", "", "en-US", caller.userId(), 1000));
        // when / then
        http.get().uri(chunks()).header("X-API-Key", stranger.apiKey()).exchange().expectStatus().isNotFound();
        http.get().uri(chunks() + "/" + chunkIds[0]).header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri(chunks() + "/" + chunkIds[0] + "/history").header("X-API-Key", stranger.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores/" + otherStore + "/sources/" + sourceId + "/chunks")
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/knowledgestores/" + otherStore + "/sources/" + sourceId + "/chunks/" + chunkIds[0])
                .header("X-API-Key", caller.apiKey()).exchange().expectStatus().isNotFound();
        http.get().uri(chunks() + "/bad").header("X-API-Key", caller.apiKey()).exchange().expectStatus().isBadRequest();
    }

    @Test
    void givenASourceWithChunks_whenTheSourceIsDeleted_thenItsChunksAreGone() {
        // given: five chunks (seed)
        // when
        position = append(sourceId, new KnowledgeSourceDeletedEvent(sourceId, storeId, projectId,
                caller.organisationId(), caller.userId(), 4000));
        // then
        http.get().uri(chunks()).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM knowledge_chunk_view WHERE source_id = ?", Long.class,
                sourceId)).isZero();
    }
}
