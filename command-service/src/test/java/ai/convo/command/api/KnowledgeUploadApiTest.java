package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.knowledge.ingest.Documents;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;

/**
 * uploadKnowledgeSourceFile over real HTTP with the real task runner and real documents, every one named fake.txt as
 * the Node client names them: the source moves ingesting -> ready with its chunks (written as the uploader's), or
 * ingesting -> failure with metaData.failReason while the task ends error with the same reason. Never a 5xx.
 */
class KnowledgeUploadApiTest extends SnapshotWorkSupport {

    private String storeId;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void store() {
        String projectId = (String) createProject(ADMIN_KEY, "Uploads " + UUID.randomUUID(), "en-US").get("_id");
        storeId = (String) http.post().uri("/v2.0/knowledgestores").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "Docs",
                        "language", "en-US")).exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("_id");
    }

    private WebTestClient.ResponseSpec upload(byte[] file, String tags) {
        return upload(file, tags, "fake.txt");
    }

    private WebTestClient.ResponseSpec upload(byte[] file, String tags, String fileName) {
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("file", new ByteArrayResource(file) {
            @Override
            public String getFilename() {
                return fileName;
            }
        });
        if (tags != null) {
            parts.part("tags", tags);
        }
        return http.post().uri("/v2.0/knowledgestores/" + storeId + "/sources/upload").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.MULTIPART_FORM_DATA).body(BodyInserters.fromMultipartData(parts.build()))
                .exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> accepted(byte[] file) {
        return upload(file, "faq, docs").expectStatus().isAccepted().expectBody(Map.class).returnResult()
                .getResponseBody();
    }

    private String sourceOf(Map<String, Object> task) {
        return (String) ((Map<?, ?>) task.get("parameters")).get("sourceId");
    }

    private List<String> eventsOf(String sourceId) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number", String.class, sourceId).stream()
                .map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }

    private String payload(String sourceId, String type) {
        return jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE "
                + "aggregate_identifier = ? AND payload_type LIKE ? ORDER BY sequence_number LIMIT 1", String.class,
                sourceId, "%" + type);
    }

    static List<Arguments> readable() {
        return List.of(
                Arguments.of("pdf", Documents.pdf("Opening hours are nine to five.", "Page two says hello."), 1),
                Arguments.of("docx", Documents.docx("Refunds take ten days.", "Exchanges are free."), 1),
                Arguments.of("txt", Documents.html("FAQ", "Shipping is free.", "Returns too."), 1),
                Arguments.of("ctxt", Documents.text("`title: Hours`\n`lang: en`\n\nWe open at nine.\n\nWe close at five."), 2),
                Arguments.of("txt", Documents.text(("A sentence of some words here. ".repeat(60) + "\n\n").repeat(3)), 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readable")
    void givenADocumentNamedFakeTxt_whenUploaded_thenItsTypeComesFromItsContentAndItsChunksAreReady(
            String type, byte[] file, int chunks) {
        // given: a real document, named fake.txt
        // when
        Map<String, Object> task = accepted(file);
        // then
        assertThat(task).containsEntry("type", "processKnowledgeSourceFile").containsEntry("status", "queued");
        awaitDone((String) task.get("_id"));
        String sourceId = sourceOf(task);
        List<String> events = eventsOf(sourceId);
        assertThat(events.get(0)).isEqualTo("KnowledgeSourceCreatedEvent");
        assertThat(events.subList(1, events.size() - 1)).hasSize(chunks).containsOnly("KnowledgeChunkCreatedEvent");
        assertThat(events.get(events.size() - 1)).isEqualTo("KnowledgeSourceIngestedEvent");
        assertThat(payload(sourceId, "KnowledgeSourceCreatedEvent")).contains("\"type\":\"" + type + "\"",
                "\"status\":\"ingesting\"", "\"name\":\"fake.txt\"", "\"tags\":[\"faq\",\"docs\"]");
        assertThat(payload(sourceId, "KnowledgeChunkCreatedEvent")).contains("\"order\":0",
                "\"createdBy\":\"" + adminUserId() + "\"");
        assertThat(payload(sourceId, "KnowledgeSourceIngestedEvent")).contains("\"chunkCount\":" + chunks);
    }

    static List<Arguments> unreadable() {
        return List.of(
                Arguments.of("encrypted", Documents.encryptedPdf("Secret."), "encrypted"),
                Arguments.of("malformed", Documents.malformedPdf(), "malformed"),
                Arguments.of("zip bomb", Documents.zipBombDocx(20), "zip bomb"),
                Arguments.of("image", Documents.png(), "No text found"),
                Arguments.of("chunk too long", Documents.text("`a: b`\n\n" + "x".repeat(2_500)), "Chunk too long"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void givenAFileThatCannotBeIngested_whenUploaded_thenTheSourceFailsWithTheReasonAndTheTaskErrs(
            String what, byte[] file, String reason) {
        // given: a file that cannot be ingested
        // when
        Map<String, Object> task = accepted(file);
        // then
        String taskId = (String) task.get("_id");
        assertThat(awaitEnd(taskId)).isEqualTo("error");
        assertThat(failReason(taskId)).contains(reason);
        String sourceId = sourceOf(task);
        assertThat(eventsOf(sourceId)).containsExactly("KnowledgeSourceCreatedEvent",
                "KnowledgeSourceIngestionFailedEvent");
        assertThat(payload(sourceId, "KnowledgeSourceIngestionFailedEvent")).contains(reason);
    }

    @Test
    void givenAFileOfAnotherTypeOrNoneOrTooLarge_whenUploaded_then4xxAndNothingStored() {
        // given
        long before = eventCount();
        // when / then
        upload(new byte[] {0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0}, null).expectStatus().isEqualTo(415)
                .expectBody().jsonPath("$.detail").value(d -> assertThat(d.toString()).contains("application/zip",
                        "accepted"));
        upload(new byte[0], null).expectStatus().isBadRequest();
        upload(new byte[10 * 1024 * 1024 + 1], null).expectStatus().isEqualTo(413)
                .expectBody().jsonPath("$.detail").value(d -> assertThat(d.toString()).contains("10485760"));
        upload(Documents.text("ok"), "x".repeat(101)).expectStatus().isBadRequest();
        http.post().uri("/v2.0/knowledgestores/" + storeId + "/sources/upload").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange().expectStatus().isEqualTo(415);
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenTheSameUploadArrivingTwentyTimesAtOnce_whenAccepted_thenOneSourceAndOneTaskAnswerEveryOne()
            throws Exception {
        // given: one file, sent twenty times concurrently as a retrying client would
        byte[] file = Documents.pdf("Retried uploads make one source.", "Page two.");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(20);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Map<String, Object>>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return accepted(file);
            }));
        }
        // when
        start.countDown();
        java.util.Set<Object> taskIds = new java.util.HashSet<>();
        for (var answer : answers) {
            Map<String, Object> task = answer.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(task).containsEntry("type", "processKnowledgeSourceFile");
            taskIds.add(task.get("_id"));
        }
        pool.shutdown();
        // then: one task, one source, one staged file
        assertThat(taskIds).hasSize(1);
        String taskId = (String) taskIds.iterator().next();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_knowledge_upload WHERE store_id = ?", Integer.class,
                storeId)).isEqualTo(1);
        awaitDone(taskId);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type LIKE "
                + "'%KnowledgeSourceCreatedEvent' AND convert_from(payload, 'UTF8') LIKE ?", Integer.class,
                "%\"storeId\":\"" + storeId + "\"%")).isEqualTo(1);
        // and a retry after the task ended still answers it
        assertThat(accepted(file)).containsEntry("_id", taskId);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAnUploadedFile_whenUploadedUnderAnotherNameOrAfterItsSourceWasDeleted_thenANewSource() {
        // given
        byte[] file = Documents.text("Shipping is free.");
        Map<String, Object> first = accepted(file);
        awaitDone((String) first.get("_id"));
        // when: another name
        Map<String, Object> renamed = upload(file, null, "shipping.txt").expectStatus().isAccepted()
                .expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(renamed.get("_id")).isNotEqualTo(first.get("_id"));
        awaitDone((String) renamed.get("_id"));
        // when: the first source deleted, the same upload again
        http.delete().uri("/v2.0/knowledgestores/" + storeId + "/sources/" + sourceOf(first))
                .header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNoContent();
        Map<String, Object> again = accepted(file);
        // then
        assertThat(again.get("_id")).isNotEqualTo(first.get("_id"));
        assertThat(sourceOf(again)).isNotEqualTo(sourceOf(first));
        awaitDone((String) again.get("_id"));
    }

    @Test
    void givenAnotherOrganisationsStore_whenUploadedTo_thenTheSame404AsForNoStoreAndNothingStored() {
        // given
        String stranger = otherOrganisationKey("uploads-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when
        String foreign = uploadAs(stranger, storeId).expectStatus().isNotFound().expectBody(String.class)
                .returnResult().getResponseBody();
        String absent = "0123456789abcdef01234567";
        String missing = uploadAs(stranger, absent).expectStatus().isNotFound().expectBody(String.class)
                .returnResult().getResponseBody();
        // then: one answer for "not yours" and "not there", apart from the id, the instance and the trace
        assertThat(strip(foreign, storeId)).isEqualTo(strip(missing, absent));
        assertThat(eventCount()).isEqualTo(before);
    }

    private WebTestClient.ResponseSpec uploadAs(String key, String store) {
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("file", new ByteArrayResource(Documents.text("Opening hours are nine to five.")) {
            @Override
            public String getFilename() {
                return "fake.txt";
            }
        });
        return http.post().uri("/v2.0/knowledgestores/" + store + "/sources/upload").header("X-API-Key", key)
                .contentType(MediaType.MULTIPART_FORM_DATA).body(BodyInserters.fromMultipartData(parts.build()))
                .exchange();
    }

    private static String strip(String problem, String id) {
        return problem.replace(id, "{id}").replaceAll("\"traceId\":\"[0-9a-f]+\"", "");
    }
}
