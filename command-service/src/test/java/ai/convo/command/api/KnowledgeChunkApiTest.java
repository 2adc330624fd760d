package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The official client's createKnowledgeChunk, updateKnowledgeChunk and deleteKnowledgeChunk over real HTTP: the
 * vendor's limits, who wrote each change, the source's chunk count, and tenancy.
 */
class KnowledgeChunkApiTest extends ApiTestBase {

    private String storeId;
    private String sourceId;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void source() {
        String projectId = (String) createProject(ADMIN_KEY, "Chunks " + UUID.randomUUID(), "en-US").get("_id");
        storeId = (String) ok(post(ADMIN_KEY, "/v2.0/knowledgestores", Map.of("projectId", projectId, "name", "FAQ",
                "language", "en-US")), 201).get("_id");
        Map<String, Object> created = ok(post(ADMIN_KEY, "/v2.0/knowledgestores/" + storeId + "/sources",
                Map.of("name", "Manual", "type", "manual")), 201);
        sourceId = (String) ((Map<String, Object>) created.get("knowledgeSource")).get("_id");
    }

    private String chunks() {
        return "/v2.0/knowledgestores/" + storeId + "/sources/" + sourceId + "/chunks";
    }

    private WebTestClient.ResponseSpec post(String key, String uri, Object body) {
        return http.post().uri(uri).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange();
    }

    private WebTestClient.ResponseSpec patch(String key, String uri, Object body) {
        return http.patch().uri(uri).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ok(WebTestClient.ResponseSpec response, int status) {
        return response.expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    private long chunkEvents() {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%KnowledgeChunk%'", Long.class, sourceId);
    }

    @Test
    void givenAReadySource_whenChunksAreCreated_then201WithTheClientsShapeAppendedInOrder() {
        // given: a ready (manual) source
        // when
        var result = post(ADMIN_KEY, chunks(), Map.of("text", "Opening hours are 9 to 5.", "data",
                Map.of("page", 1, "lang", "en", "checked", true))).expectStatus().isCreated()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> first = result.getResponseBody();
        Map<String, Object> second = ok(post(ADMIN_KEY, chunks(), Map.of("text", "Closed on Sundays.")), 201);
        Map<String, Object> placed = ok(post(ADMIN_KEY, chunks(), Map.of("text", "Far away.", "order", 10)), 201);
        Map<String, Object> after = ok(post(ADMIN_KEY, chunks(), Map.of("text", "Next.")), 201);
        // then
        assertThat(first.keySet()).containsExactly("_id", "referenceId", "order", "text", "disabled", "data",
                "storeReference", "sourceReference", "projectReference", "organisationReference", "createdAt",
                "lastChanged", "createdBy", "lastChangedBy");
        assertThat(first).containsEntry("order", 0).containsEntry("disabled", false)
                .containsEntry("data", Map.of("page", 1, "lang", "en", "checked", true))
                .containsEntry("sourceReference", sourceId).containsEntry("storeReference", storeId)
                .containsEntry("createdBy", adminUserId());
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new" + chunks() + "/" + first.get("_id"));
        assertThat(second).containsEntry("order", 1);
        assertThat(placed).containsEntry("order", 10);
        assertThat(after).containsEntry("order", 11);
        assertThat(chunkEvents()).isEqualTo(4);
    }

    @Test
    void givenAChunk_whenPatched_thenTheFullChunkWithOnlyTheChangedFieldsAndNoEventWhenNothingChanged() {
        // given
        String id = (String) ok(post(ADMIN_KEY, chunks(), Map.of("text", "Old text.")), 201).get("_id");
        // when
        Map<String, Object> patched = ok(patch(ADMIN_KEY, chunks() + "/" + id, Map.of("text", "New text.",
                "disabled", true, "order", 7, "data", Map.of("k", 2.5))), 200);
        long events = chunkEvents();
        Map<String, Object> same = ok(patch(ADMIN_KEY, chunks() + "/" + id, Map.of("text", "New text.")), 200);
        // then
        assertThat(patched).containsEntry("text", "New text.").containsEntry("disabled", true)
                .containsEntry("order", 7).containsEntry("data", Map.of("k", 2.5));
        assertThat(same).isEqualTo(patched);
        assertThat(chunkEvents()).isEqualTo(events).isEqualTo(2);
        String changed = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE "
                + "aggregate_identifier = ? AND payload_type LIKE '%KnowledgeChunkUpdatedEvent'", String.class, sourceId);
        assertThat(changed).contains("\"changedFields\":[\"text\",\"order\",\"data\",\"disabled\"]",
                "\"changedBy\":\"" + adminUserId() + "\"");
    }

    @Test
    void givenAChunk_whenDeleted_then204AndItIsGoneForTheNextCommand() {
        // given
        String id = (String) ok(post(ADMIN_KEY, chunks(), Map.of("text", "Bye.")), 201).get("_id");
        // when
        http.delete().uri(chunks() + "/" + id).header("X-API-Key", ADMIN_KEY).exchange()
                // then
                .expectStatus().isNoContent();
        http.delete().uri(chunks() + "/" + id).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.detail")
                .isEqualTo("Knowledge chunk " + id + " does not exist.");
        patch(ADMIN_KEY, chunks() + "/" + id, Map.of("text", "x")).expectStatus().isNotFound();
    }

    @Test
    void givenBadChunks_whenPosted_then400NamingTheFieldAndTheLimitAndNothingStored() {
        // given
        Map<String, Object> tooManyPairs = new LinkedHashMap<>();
        IntStream.range(0, 21).forEach(i -> tooManyPairs.put("k" + i, i));
        // when / then
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x".repeat(2_001))), 400).toString())
                .contains("text", "2000");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "   ")), 400).toString()).contains("blank");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of()), 400).toString()).contains("text");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x", "data", tooManyPairs)), 400).toString())
                .contains("data", "at most 20 keys", "got 21 keys");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x", "data", Map.of("nested", Map.of("a", 1)))), 400)
                .toString()).contains("data", "an object");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x", "data", Map.of("list", List.of(1)))), 400)
                .toString()).contains("an array");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x", "order", -1)), 400).toString()).contains("order");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x", "colour", "red")), 400).toString())
                .contains("colour");
        assertThat(ok(post(ADMIN_KEY, chunks(), Map.of("text", "x".repeat(2_000))), 201)).containsKey("_id");
        assertThat(chunkEvents()).isEqualTo(1);
    }

    @Test
    void givenAnotherOrganisationOrAnotherStore_whenChunksAreWritten_then404AndNothingStored() {
        // given
        String id = (String) ok(post(ADMIN_KEY, chunks(), Map.of("text", "Mine.")), 201).get("_id");
        String stranger = otherOrganisationKey("chunks-" + UUID.randomUUID() + "@example.com");
        String otherStore = (String) ok(post(ADMIN_KEY, "/v2.0/knowledgestores", Map.of("projectId",
                jdbc.queryForObject("SELECT project_id FROM cmd_knowledge_store_lookup WHERE store_id = ?", String.class,
                        storeId), "name", "Other", "language", "en-US")), 201).get("_id");
        // when / then
        post(stranger, chunks(), Map.of("text", "Theirs.")).expectStatus().isNotFound();
        patch(stranger, chunks() + "/" + id, Map.of("text", "Theirs.")).expectStatus().isNotFound();
        http.delete().uri(chunks() + "/" + id).header("X-API-Key", stranger).exchange().expectStatus().isNotFound();
        post(ADMIN_KEY, "/v2.0/knowledgestores/" + otherStore + "/sources/" + sourceId + "/chunks",
                Map.of("text", "Elsewhere.")).expectStatus().isNotFound();
        assertThat(chunkEvents()).isEqualTo(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAnIngestingSource_whenAChunkIsPosted_then409SayingWhen() {
        // given: a pdf source with inline data waits for its ingestion (ApiTestBase runs no ingestion worker; a url
        // source would be fetched by its task)
        Map<String, Object> created = ok(post(ADMIN_KEY, "/v2.0/knowledgestores/" + storeId + "/sources",
                Map.of("name", "Doc", "type", "pdf", "data", Map.of("page1", "Text."))), 201);
        String ingesting = (String) ((Map<String, Object>) created.get("knowledgeSource")).get("_id");
        // when
        Map<String, Object> problem = ok(post(ADMIN_KEY, "/v2.0/knowledgestores/" + storeId + "/sources/" + ingesting
                + "/chunks", Map.of("text", "Too early.")), 409);
        // then
        assertThat((String) problem.get("detail")).contains("ingesting", "ready or disabled");
    }
}
