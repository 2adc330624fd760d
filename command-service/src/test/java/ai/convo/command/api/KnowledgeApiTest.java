package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.knowledge.KnowledgeIngestion;
import ai.convo.contract.common.Ids;
import ai.convo.testing.TestTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The knowledge writes over real HTTP: POST/DELETE /v2.0/knowledgestores[/{id}], POST/DELETE
 * .../sources[/{id}] and the specification's PATCH .../sources/{id} with its status machine and auth schemes.
 */
@TestPropertySource(properties = "app.knowledge.ingestion.enabled=true")
class KnowledgeApiTest extends ApiTestBase {

    @Autowired
    EventProcessingConfiguration processing;

    private String projectId;
    private String storeId;

    @BeforeEach
    void store() {
        projectId = (String) createProject(ADMIN_KEY, "Knowledge " + UUID.randomUUID(), "en-US").get("_id");
        storeId = (String) created("/v2.0/knowledgestores", Map.of("projectId", projectId, "name", "FAQ",
                "language", "en-US")).get("_id");
    }

    // ---- helpers

    private WebTestClient.ResponseSpec post(String key, String uri, Object body) {
        return http.post().uri(uri).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> created(String uri, Object body) {
        return post(ADMIN_KEY, uri, body).expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody();
    }

    private String sources() {
        return "/v2.0/knowledgestores/" + storeId + "/sources";
    }

    private Map<String, Object> source(String type, Map<String, Object> data) {
        return createdSource(Map.of("name", "Source " + type, "type", type, "data", data));
    }

    /** A source's creation answers the official client's {knowledgeSource, taskData}; the source itself. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> createdSource(Object body) {
        Map<String, Object> answer = created(sources(), body);
        assertThat(answer).containsOnlyKeys("knowledgeSource");
        return (Map<String, Object>) answer.get("knowledgeSource");
    }

    private WebTestClient.ResponseSpec patchWith(String header, String value, String store, String source, Object body) {
        return http.patch().uri("/v2.0/knowledgestores/{s}/sources/{id}", store, source).header(header, value)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> patch(String source, Object body, int status) {
        return patchWith("X-API-Key", ADMIN_KEY, storeId, source, body).expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> problem) {
        return (Map<String, Object>) problem.get("details");
    }

    /** Waits until the ingestion worker has ended the source's ingesting status; answers the last event's type. */
    private String ingestionOutcome(String sourceId) throws InterruptedException {
        Instant until = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(until)) {
            List<String> last = jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ? "
                    + "ORDER BY sequence_number DESC LIMIT 1", String.class, sourceId);
            if (!last.isEmpty() && !last.get(0).endsWith("KnowledgeSourceCreatedEvent")) {
                return last.get(0).substring(last.get(0).lastIndexOf('.') + 1);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("source " + sourceId + " was not ingested within 20 s");
    }

    /** Runs {@code work} while the ingestion worker is stopped, so a new source stays ingesting. */
    private void withIngestionPaused(Runnable work) {
        EventProcessor worker = processing.eventProcessor(KnowledgeIngestion.GROUP).orElseThrow();
        worker.shutDown();
        try {
            work.run();
        } finally {
            worker.start();
        }
    }

    // ---- stores

    @Test
    void givenAProject_whenAStoreIsPosted_then201WithTheRecordLocationAndEventPosition() {
        // given: a project
        // when
        var result = post(ADMIN_KEY, "/v2.0/knowledgestores", Map.of("projectId", projectId, "name", "Manuals",
                        "description", "All manuals", "language", "de-DE"))
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = result.getResponseBody();
        assertThat(body.keySet()).containsExactly("_id", "referenceId", "name", "description", "language", "status",
                "projectReference", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(body).containsEntry("name", "Manuals").containsEntry("description", "All manuals")
                .containsEntry("language", "de-DE").containsEntry("status", "ready")
                .containsEntry("projectReference", projectId).containsEntry("createdBy", adminUserId());
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/knowledgestores/" + body.get("_id"));
    }

    private WebTestClient.ResponseSpec patchStore(String key, String store, Object body) {
        return http.patch().uri("/v2.0/knowledgestores/{id}", store).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void givenAStore_whenPatchedWithNameAndDescription_then200WithTheFullUpdatedStore() {
        // given: the store of @BeforeEach
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> body = patchStore(ADMIN_KEY, storeId, Map.of("name", "Handbooks", "description", "All of them"))
                // then
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body.keySet()).containsExactly("_id", "referenceId", "name", "description", "language", "status",
                "projectReference", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(body).containsEntry("_id", storeId).containsEntry("name", "Handbooks")
                .containsEntry("description", "All of them").containsEntry("language", "en-US")
                .containsEntry("projectReference", projectId).containsEntry("lastChangedBy", adminUserId());
    }

    @Test
    void givenAStore_whenThePatchIsInvalid_then400NamingEachFieldAndNothingIsStored() {
        // given
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("name", "");
        body.put("description", 7);
        body.put("language", "de-DE");
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = patchStore(ADMIN_KEY, storeId, body).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        // then: the language of a store is fixed at its creation
        assertThat(details(problem)).containsOnlyKeys("name", "description", "language");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAStoreOfAnotherOrganisationOrNoStore_whenPatched_then404AndNothingIsStored() {
        // given
        String stranger = otherOrganisationKey("knowledge-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        patchStore(stranger, storeId, Map.of("name", "Mine")).expectStatus().isNotFound();
        patchStore(ADMIN_KEY, Ids.newId(), Map.of("name", "Nobody")).expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnInvalidStoreBody_whenPosted_then400NamingEveryFieldAndNothingIsStored() {
        // given
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("projectId", "nope");
        body.put("name", "");
        body.put("description", 5);
        body.put("language", "en-XX");
        body.put("color", "red");
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, "/v2.0/knowledgestores", body).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(details(problem)).containsOnlyKeys("projectId", "name", "description", "language", "color");
        assertThat((String) details(problem).get("language")).contains("en-US", "de-DE");
        assertThat(problem).containsEntry("code", "1000");
        @SuppressWarnings("unchecked")
        Map<String, Object> missing = post(ADMIN_KEY, "/v2.0/knowledgestores", Map.of()).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(details(missing)).containsOnlyKeys("projectId", "name", "language");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnUnknownOrForeignProject_whenAStoreIsPosted_then404() {
        // given
        String stranger = otherOrganisationKey("knowledge-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        post(ADMIN_KEY, "/v2.0/knowledgestores", Map.of("projectId", Ids.newId(), "name", "x", "language", "en-US"))
                .expectStatus().isNotFound();
        post(stranger, "/v2.0/knowledgestores", Map.of("projectId", projectId, "name", "x", "language", "en-US"))
                .expectStatus().isNotFound().expectBody().jsonPath("$.logLevel").exists();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenWrongContentTypeOrAccept_whenPosting_then415Or406() {
        // given
        long before = eventCount();
        // when / then
        http.post().uri("/v2.0/knowledgestores").header("X-API-Key", ADMIN_KEY).contentType(MediaType.TEXT_PLAIN)
                .bodyValue("name=x").exchange().expectStatus().isEqualTo(415);
        http.post().uri(sources()).header("X-API-Key", ADMIN_KEY).accept(MediaType.IMAGE_PNG)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "x", "type", "manual")).exchange()
                .expectStatus().isEqualTo(406);
        http.post().uri(sources()).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\"").exchange().expectStatus().isBadRequest();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAStoreWithSources_whenTheStoreIsDeleted_then204AndItAndItsSourcesAre404() {
        // given
        String sourceId = (String) source("manual", Map.of("a", "b")).get("_id");
        // when
        http.delete().uri("/v2.0/knowledgestores/{s}", storeId).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent().expectHeader().exists("X-Event-Position");
        // then
        http.delete().uri("/v2.0/knowledgestores/{s}", storeId).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound();
        patch(sourceId, Map.of("name", "x"), 404);
        http.delete().uri(sources() + "/" + sourceId).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNotFound();
        post(ADMIN_KEY, sources(), Map.of("name", "late", "type", "manual")).expectStatus().isNotFound();
    }

    @Test
    void givenAStore_whenAStrangerOrAMalformedIdDeletesIt_then404Or400() {
        // given
        String stranger = otherOrganisationKey("knowledge-" + UUID.randomUUID() + "@example.com");
        // when / then
        http.delete().uri("/v2.0/knowledgestores/{s}", storeId).header("X-API-Key", stranger).exchange()
                .expectStatus().isNotFound();
        http.delete().uri("/v2.0/knowledgestores/{s}", Ids.newId()).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound();
        http.delete().uri("/v2.0/knowledgestores/{s}", "BAD").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.knowledgeStoreId").exists();
        post(stranger, sources(), Map.of("name", "x", "type", "manual")).expectStatus().isNotFound();
    }

    @Test
    void givenADeletedProject_whenItsStoreIsUsed_then404() {
        // given
        http.delete().uri("/v2.0/projects/{p}", projectId).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent();
        // when / then
        post(ADMIN_KEY, sources(), Map.of("name", "x", "type", "manual")).expectStatus().isNotFound();
        http.delete().uri("/v2.0/knowledgestores/{s}", storeId).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound();
    }

    // ---- sources: creation and ingestion

    @Test
    void givenAStore_whenAManualSourceIsPosted_then201ReadyWithItsChunksAndTheFullRecord() {
        // given
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("answer", "x".repeat(600));
        data.put("count", 3);
        // when
        var result = post(ADMIN_KEY, sources(), Map.of("name", "Returns", "description", "How to return",
                        "type", "manual", "metaData", Map.of("tags", List.of("faq", "returns")), "data", data))
                // then
                .expectStatus().isCreated().expectHeader().exists("X-Event-Position")
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = (Map<String, Object>) result.getResponseBody().get("knowledgeSource");
        assertThat(result.getResponseBody()).containsOnlyKeys("knowledgeSource");
        assertThat(body.keySet()).containsExactly("_id", "referenceId", "name", "description", "type", "status",
                "chunkCount", "metaData", "data", "storeReference", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(body).containsEntry("status", "ready").containsEntry("chunkCount", 3).containsEntry("type", "manual")
                .containsEntry("metaData", Map.of("tags", List.of("faq", "returns"))).containsEntry("data", data)
                .containsEntry("storeReference", storeId);
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new" + sources() + "/" + body.get("_id"));
    }

    @Test
    void givenAStore_whenAPdfSourceIsPosted_thenIngestingAndTheWorkerMakesItReadyWithItsChunks() throws Exception {
        // given / when
        Map<String, Object> body = source("pdf", Map.of("page1", "y".repeat(1000), "page2", "z"));
        assertThat(body).containsEntry("status", "ingesting").containsEntry("chunkCount", 0);
        // then
        assertThat(ingestionOutcome((String) body.get("_id"))).isEqualTo("KnowledgeSourceIngestedEvent");
        assertThat(patch((String) body.get("_id"), Map.of(), 200)).containsEntry("status", "ready").containsEntry("chunkCount", 3);
    }

    @Test
    void givenAStore_whenAUrlSourceWithNothingToIngestIsPosted_thenTheWorkerSetsFailureWhichAClientCannotLeave()
            throws Exception {
        // given
        String id = (String) source("url", Map.of()).get("_id");
        assertThat(ingestionOutcome(id)).isEqualTo("KnowledgeSourceIngestionFailedEvent");
        // when
        Map<String, Object> problem = patch(id, Map.of("status", "ready"), 409);
        // then
        assertThat(problem).containsEntry("code", "1004");
        assertThat((String) problem.get("detail")).contains("'failure'", "'ready'", "none");
        assertThat(details(problem)).containsEntry("allowed", List.of());
        assertThat(patch(id, Map.of("name", "Renamed"), 200)).containsEntry("status", "failure")
                .containsEntry("name", "Renamed");
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAStore_whenAUrlSourceIsPostedWithTheOfficialClientsUrlField_thenItIsTheSourcesDataUrlAndATaskFetchesIt()
            throws Exception {
        // given / when
        Map<String, Object> first = created(sources(), Map.of("name", "Docs", "type", "url",
                "url", "https://docs.example.com/faq?lang=en", "metaData", Map.of("tags", List.of("faq"))));
        Map<String, Object> second = created(sources(), Map.of("name", "Docs again", "type", "url",
                "url", "https://docs.example.com/", "data", Map.of("url", "https://docs.example.com/", "depth", 2)));
        // then: each answers its source and the task that fetches it (KnowledgeUrlSourceApiTest follows those)
        assertThat(first).containsOnlyKeys("knowledgeSource", "taskData");
        Map<String, Object> body = (Map<String, Object>) first.get("knowledgeSource");
        Map<String, Object> same = (Map<String, Object>) second.get("knowledgeSource");
        assertThat(body).containsEntry("status", "ingesting")
                .containsEntry("data", Map.of("url", "https://docs.example.com/faq?lang=en"));
        assertThat(same).containsEntry("data", Map.of("url", "https://docs.example.com/", "depth", 2));
        assertThat((Map<String, Object>) first.get("taskData")).containsEntry("type", "processKnowledgeSourceUrl")
                .containsEntry("parameters", Map.of("knowledgeStoreId", storeId, "sourceId", body.get("_id"),
                        "url", "https://docs.example.com/faq?lang=en"));
    }

    @Test
    void givenAUrlThatIsNotAnHttpUrlOrNotForAUrlSource_whenPosted_then400SayingWhatIsAllowedAndNothingIsStored() {
        long before = eventCount();
        Map<String, Object> tooManyKeys = new LinkedHashMap<>();
        IntStream.range(0, 20).forEach(i -> tooManyKeys.put("k" + i, "v"));
        List<Map<String, Object>> bodies = List.of(
                Map.of("name", "a", "type", "manual", "url", "https://example.com/"),
                Map.of("name", "b", "type", "url", "url", "ftp://example.com/file"),
                Map.of("name", "c", "type", "url", "url", "/relative/path"),
                Map.of("name", "d", "type", "url", "url", 42),
                Map.of("name", "e", "type", "url", "url", "https://example.com/" + "x".repeat(1000)),
                Map.of("name", "f", "type", "url", "url", "https://a.example/", "data", Map.of("url", "https://b.example/")),
                Map.of("name", "g", "type", "url", "url", "https://a.example/", "data", tooManyKeys));
        List<String> expected = List.of("type url only", "http or https", "http or https", "got 42",
                "at most 1000 characters", "differs from data.url", "21 keys");
        for (int i = 0; i < bodies.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> problem = post(ADMIN_KEY, sources(), bodies.get(i)).expectStatus().isBadRequest()
                    .expectBody(Map.class).returnResult().getResponseBody();
            assertThat(details(problem)).as(bodies.get(i).toString()).containsOnlyKeys("url");
            assertThat((String) details(problem).get("url")).as(bodies.get(i).toString()).contains(expected.get(i));
        }
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnInvalidSourceBody_whenPosted_then400NamingEveryFieldAndWhatIsAllowed() {
        // given
        long before = eventCount();
        Map<String, Object> tooMany = new LinkedHashMap<>();
        IntStream.range(0, 21).forEach(i -> tooMany.put("k" + i, "v"));
        Map<String, Object> body = new HashMap<>();
        body.put("name", " ");
        body.put("type", "mp3");
        body.put("data", tooMany);
        body.put("metaData", Map.of("tags", List.of("ok", 5), "url", "http://x"));
        body.put("status", "ready");
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, sources(), body).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(details(problem)).containsOnlyKeys("name", "type", "data", "metaData.tags", "metaData.url", "status");
        assertThat((String) details(problem).get("type")).contains("pdf", "manual", "tiff");
        assertThat((String) details(problem).get("data")).contains("20 keys", "21 keys");
        assertThat(eventCount()).isEqualTo(before);
        post(ADMIN_KEY, sources(), Map.of()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.name").exists().jsonPath("$.details.type").exists();
    }

    @Test
    void givenAnUnknownOrMalformedStore_whenASourceIsPosted_then404Or400() {
        // given / when / then
        post(ADMIN_KEY, "/v2.0/knowledgestores/" + Ids.newId() + "/sources", Map.of("name", "x", "type", "manual"))
                .expectStatus().isNotFound();
        post(ADMIN_KEY, "/v2.0/knowledgestores/x/sources", Map.of("name", "x", "type", "manual"))
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.knowledgeStoreId").exists();
    }

    // ---- PATCH: the status machine

    @Test
    void givenAReadySource_whenDisabledAndMadeReadyAgain_then200WithTheFullRecordEachTime() {
        // given
        Map<String, Object> source = source("manual", Map.of("a", "b"));
        String id = (String) source.get("_id");
        // when
        var result = patchWith("X-API-Key", ADMIN_KEY, storeId, id, Map.of("status", "disabled"))
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult();
        // then
        @SuppressWarnings("unchecked")
        Map<String, Object> disabled = result.getResponseBody();
        assertThat(disabled).containsEntry("status", "disabled").containsEntry("_id", id)
                .containsEntry("referenceId", source.get("referenceId")).containsEntry("createdAt", source.get("createdAt"))
                .containsEntry("data", Map.of("a", "b")).containsEntry("chunkCount", 1);
        assertThat(disabled.keySet()).isEqualTo(source.keySet());
        assertThat(patch(id, Map.of("status", "ready"), 200)).containsEntry("status", "ready");
        assertThat(patch(id, Map.of("status", "ready"), 200)).containsEntry("status", "ready");
    }

    @Test
    void givenAReadySource_whenAClientSetsIngestingOrFailure_then409NamingTheAllowedMovesAndNothingChanges() {
        // given
        String id = (String) source("manual", Map.of()).get("_id");
        long before = eventCount();
        for (String target : List.of("ingesting", "failure")) {
            // when
            Map<String, Object> problem = patch(id, Map.of("status", target, "name", "Renamed"), 409);
            // then
            assertThat(problem).containsEntry("code", "1004").containsEntry("type", "Conflict");
            assertThat((String) problem.get("detail")).contains("'ready'", "'" + target + "'", "system only", "disabled");
            assertThat(details(problem)).containsEntry("allowed", List.of("disabled")).containsEntry("status", "ready");
        }
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnIngestingSource_whenAnyFieldIsPatched_then409UntilIngestionEnds() throws Exception {
        // given: the worker is paused, so the new source stays ingesting
        String[] id = new String[1];
        withIngestionPaused(() -> {
            id[0] = (String) source("docx", Map.of("text", "hello")).get("_id");
            long before = eventCount();
            // when / then
            for (Map<String, Object> body : List.of(Map.<String, Object>of("name", "Renamed"), Map.<String, Object>of(
                    "status", "disabled"), Map.<String, Object>of("metaData", Map.of("tags", List.of("x"))),
                    Map.<String, Object>of())) {
                Map<String, Object> problem = patch(id[0], body, 409);
                assertThat((String) problem.get("detail")).contains("being ingested");
                assertThat(details(problem)).containsEntry("status", "ingesting");
            }
            assertThat(eventCount()).isEqualTo(before);
        });
        // then: once the worker ran, the source is editable
        assertThat(ingestionOutcome(id[0])).isEqualTo("KnowledgeSourceIngestedEvent");
        assertThat(patch(id[0], Map.of("name", "Renamed"), 200)).containsEntry("name", "Renamed")
                .containsEntry("status", "ready").containsEntry("chunkCount", 1);
    }

    @Test
    void givenAnIngestingSource_whenDeleted_then204AndTheWorkerLeavesItAlone() throws Exception {
        // given
        String[] id = new String[1];
        withIngestionPaused(() -> {
            id[0] = (String) source("png", Map.of("caption", "a cat")).get("_id");
            // when
            http.delete().uri(sources() + "/" + id[0]).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNoContent();
        });
        // then: the worker catches up without failing on the deleted source
        String other = (String) source("png", Map.of("caption", "a dog")).get("_id");
        assertThat(ingestionOutcome(other)).isEqualTo("KnowledgeSourceIngestedEvent");
        assertThat(ingestionOutcome(id[0])).isEqualTo("KnowledgeSourceDeletedEvent");
        patch(id[0], Map.of(), 404);
    }

    // ---- PATCH: fields

    @Test
    void givenASource_whenNameDescriptionTagsAndDataArePatched_thenTheyAreReplacedAndChunksRecounted() {
        // given
        String id = (String) createdSource(Map.of("name", "N", "type", "ctxt", "metaData",
                Map.of("tags", List.of("a", "b")), "data", Map.of("x", "1"))).get("_id");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("answer", "y".repeat(1000));
        data.put("valid", true);
        // when
        Map<String, Object> updated = patch(id, Map.of("name", "New name", "description", "New description",
                "metaData", Map.of("tags", List.of("c")), "data", data), 200);
        // then
        assertThat(updated).containsEntry("name", "New name").containsEntry("description", "New description")
                .containsEntry("metaData", Map.of("tags", List.of("c"))).containsEntry("data", data)
                .containsEntry("chunkCount", 3).containsEntry("status", "ready");
        assertThat(patch(id, Map.of("metaData", Map.of("tags", List.of())), 200))
                .containsEntry("metaData", Map.of("tags", List.of()));
        assertThat(patch(id, Map.of("metaData", Map.of()), 200)).containsEntry("metaData", Map.of("tags", List.of()))
                .containsEntry("name", "New name");
    }

    @Test
    void givenASource_whenPatchedWithBadValues_then400NamingEachFieldAndWhatIsAllowedAndNothingChanges() {
        // given
        String id = (String) source("manual", Map.of("a", "b")).get("_id");
        long before = eventCount();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("ok", "v");
        data.put("bad key", "v");
        Map<String, Object> body = new HashMap<>();
        body.put("name", null);
        body.put("description", "d".repeat(1001));
        body.put("status", "archived");
        body.put("metaData", Map.of("tags", "faq"));
        body.put("data", data);
        body.put("type", "pdf");
        // when
        Map<String, Object> problem = patch(id, body, 400);
        // then
        assertThat(details(problem)).containsOnlyKeys("name", "description", "status", "metaData.tags", "data", "type");
        assertThat((String) details(problem).get("status")).contains("ready", "ingesting", "disabled", "failure");
        assertThat((String) details(problem).get("data")).contains("bad key", "^[A-Za-z_][A-Za-z0-9_-]{0,63}$");
        assertThat((String) details(problem).get("type")).contains("unknown field");
        assertThat((String) problem.get("detail")).contains("metaData.tags", "description");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenASource_whenDataBreaksEachVendorLimit_then400NamingData() {
        // given
        String id = (String) source("manual", Map.of()).get("_id");
        Map<String, Object> tooMany = new LinkedHashMap<>();
        IntStream.range(0, 21).forEach(i -> tooMany.put("k" + i, "v"));
        Map<String, Object> exactly = new LinkedHashMap<>();
        IntStream.range(0, 20).forEach(i -> exactly.put("k" + i, "v".repeat(1000)));
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("k", null);
        // when / then
        assertThat((String) details(patch(id, Map.of("data", tooMany), 400)).get("data")).contains("21 keys");
        assertThat((String) details(patch(id, Map.of("data", Map.of("k", "v".repeat(1001))), 400)).get("data"))
                .contains("1001 characters");
        assertThat((String) details(patch(id, Map.of("data", Map.of("k", Map.of("a", 1))), 400)).get("data"))
                .contains("an object");
        assertThat((String) details(patch(id, Map.of("data", withNull), 400)).get("data")).contains("null");
        assertThat((String) details(patch(id, Map.of("data", List.of()), 400)).get("data")).contains("an array");
        assertThat((String) details(patch(id, Map.of("metaData", Map.of("tags", List.of("t".repeat(101)))), 400))
                .get("metaData.tags")).contains("100");
        assertThat(patch(id, Map.of("data", exactly), 200)).containsEntry("chunkCount", 40);
    }

    @Test
    void givenUnknownForeignMisplacedOrMalformedSources_whenPatched_then404Or400() {
        // given
        String id = (String) source("manual", Map.of()).get("_id");
        String otherStore = (String) created("/v2.0/knowledgestores", Map.of("projectId", projectId, "name", "Other",
                "language", "en-US")).get("_id");
        String stranger = otherOrganisationKey("knowledge-" + UUID.randomUUID() + "@example.com");
        // when / then
        patch(Ids.newId(), Map.of("name", "x"), 404);
        patchWith("X-API-Key", stranger, storeId, id, Map.of("name", "x")).expectStatus().isNotFound()
                .expectBody().jsonPath("$.logLevel").exists();
        patchWith("X-API-Key", ADMIN_KEY, otherStore, id, Map.of("name", "x")).expectStatus().isNotFound();
        patchWith("X-API-Key", ADMIN_KEY, "bad", id, Map.of("name", "x")).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.knowledgeStoreId").exists();
        assertThat(details(patch("x".repeat(25), Map.of("name", "x"), 400))).containsKey("sourceId");
        http.delete().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, id).header("X-API-Key", stranger)
                .exchange().expectStatus().isNotFound();
        http.delete().uri("/v2.0/knowledgestores/{s}/sources/{id}", otherStore, id).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNotFound();
        http.delete().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, "nope").header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isBadRequest();
    }

    @Test
    void givenASource_whenDeleted_then204AndItIsGone() {
        // given
        String id = (String) source("manual", Map.of()).get("_id");
        // when
        http.delete().uri(sources() + "/" + id).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNoContent()
                .expectHeader().exists("X-Event-Position");
        // then
        patch(id, Map.of("name", "x"), 404);
        http.delete().uri(sources() + "/" + id).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNotFound();
    }

    // ---- authentication

    @Test
    void givenThePatch_whenCalledWithEachScheme_thenOnlyTheApiKeysAndTheContactCenterTokenAreAccepted() {
        // given
        String id = (String) source("manual", Map.of()).get("_id");
        String user = adminUserId();
        // when / then
        patchWith("X-API-Key", ADMIN_KEY, storeId, id, Map.of("name", "header")).expectStatus().isOk();
        http.patch().uri("/v2.0/knowledgestores/{s}/sources/{id}?api_key=" + ADMIN_KEY, storeId, id)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "query")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.name").isEqualTo("query");
        patchWith("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(user), storeId, id,
                Map.of("name", "cc")).expectStatus().isOk();
        patchWith("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD), storeId, id, Map.of("name", "basic"))
                .expectStatus().isUnauthorized().expectBody().jsonPath("$.code").isEqualTo("401");
        patchWith("Authorization", "Bearer " + TestTokens.bearer(user), storeId, id, Map.of("name", "bearer"))
                .expectStatus().isUnauthorized();
        http.patch().uri("/v2.0/knowledgestores/{s}/sources/{id}", storeId, id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "nobody")).exchange().expectStatus().isUnauthorized();
        patchWith("X-API-Key", "wrong-key", storeId, id, Map.of("name", "x")).expectStatus().isUnauthorized();
        assertThat(patch(id, Map.of(), 200)).containsEntry("name", "cc");
    }

    @Test
    void givenTheOtherKnowledgeWrites_whenCalledWithBasicOrBearer_thenAccepted() {
        // given
        String user = adminUserId();
        // when / then
        http.post().uri("/v2.0/knowledgestores").header("Authorization", "Bearer " + TestTokens.bearer(user))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "Bearer", "language", "en-US"))
                .exchange().expectStatus().isCreated();
        http.post().uri(sources()).header("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Basic", "type", "manual"))
                .exchange().expectStatus().isCreated();
        http.post().uri(sources()).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "x", "type", "manual"))
                .exchange().expectStatus().isUnauthorized();
        http.delete().uri("/v2.0/knowledgestores/{s}", storeId).exchange().expectStatus().isUnauthorized();
    }
}
