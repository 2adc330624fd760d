package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.knowledge.ingest.Documents;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * createKnowledgeSource with a url, over real HTTP, with the real task runner fetching from a real loopback server:
 * allowed by the operator's app.knowledge.url.allowed-hosts as "localhost" (ApiTestBase), while the same server
 * addressed as 127.0.0.1 is not allowed. The source moves ingesting -> ready with its chunks, or ingesting -> failure
 * with metaData.failReason while the task ends error with the same reason.
 */
class KnowledgeUrlSourceApiTest extends SnapshotWorkSupport {

    private static final int MIB = 1024 * 1024;

    private HttpServer server;
    private int port;
    private final AtomicInteger pageRequests = new AtomicInteger();
    private final AtomicLong hugeStreamed = new AtomicLong();
    private String storeId;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void serveAndStore() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        serve("/page", "text/html", Documents.html("FAQ", "Opening hours are nine to five.", "Parking is free."));
        serve("/paper", "application/octet-stream", Documents.pdf("The planted answer is forty-two.", "Page two."));
        server.createContext("/to-private", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + port + "/page");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/huge", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked: no Content-Length to refuse up front
            byte[] block = "A sentence of some words here. ".repeat(2048).getBytes();
            try (OutputStream out = exchange.getResponseBody()) {
                while (hugeStreamed.get() < 64L * MIB) {
                    out.write(block);
                    hugeStreamed.addAndGet(block.length);
                }
            } catch (IOException cutOff) {
                // the fetch gave up
            }
        });
        server.createContext("/missing", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        port = server.getAddress().getPort();
        String projectId = (String) createProject(ADMIN_KEY, "Urls " + UUID.randomUUID(), "en-US").get("_id");
        storeId = (String) http.post().uri("/v2.0/knowledgestores").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "Web",
                        "language", "en-US")).exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("_id");
    }

    private void serve(String path, String type, byte[] body) {
        server.createContext(path, exchange -> {
            pageRequests.incrementAndGet();
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** POSTs a url source; answers {knowledgeSource, taskData}. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> created(String url) {
        return http.post().uri("/v2.0/knowledgestores/" + storeId + "/sources").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Web page", "type", "url", "url", url))
                .exchange().expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> part(Map<String, Object> answer, String key) {
        return (Map<String, Object>) answer.get(key);
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

    /** Creates the source, waits for its task to end error, and answers the failure event's payload. */
    private String failure(String url) {
        Map<String, Object> answer = created(url);
        String taskId = (String) part(answer, "taskData").get("_id");
        String sourceId = (String) part(answer, "knowledgeSource").get("_id");
        assertThat(awaitEnd(taskId)).isEqualTo("error");
        assertThat(eventsOf(sourceId)).containsExactly("KnowledgeSourceCreatedEvent",
                "KnowledgeSourceIngestionFailedEvent");
        String failed = payload(sourceId, "KnowledgeSourceIngestionFailedEvent");
        String reason = failed.replaceAll(".*\"reason\":\"([^\"]*)\".*", "$1");
        assertThat(failReason(taskId)).contains(reason);
        return reason;
    }

    @Test
    void givenAnAllowedHostServingHtmlAndPdf_whenUrlSourcesAreCreated_thenFetchedByATaskAndReadyWithChunks() {
        for (String path : List.of("/page", "/paper")) {
            // given: a document at an allowed host
            String url = "http://localhost:" + port + path;
            // when
            Map<String, Object> answer = created(url);
            // then: created ingesting, with the task that ingests it
            assertThat(part(answer, "knowledgeSource")).containsEntry("status", "ingesting")
                    .containsEntry("type", "url").containsEntry("data", Map.of("url", url));
            assertThat(part(answer, "taskData")).containsEntry("type", "processKnowledgeSourceUrl")
                    .containsEntry("status", "queued");
            awaitDone((String) part(answer, "taskData").get("_id"));
            String sourceId = (String) part(answer, "knowledgeSource").get("_id");
            List<String> events = eventsOf(sourceId);
            assertThat(events).first().isEqualTo("KnowledgeSourceCreatedEvent");
            assertThat(events).last().isEqualTo("KnowledgeSourceIngestedEvent");
            assertThat(events.subList(1, events.size() - 1)).isNotEmpty().containsOnly("KnowledgeChunkCreatedEvent");
            assertThat(payload(sourceId, "KnowledgeChunkCreatedEvent")).contains(
                    path.equals("/page") ? "Opening hours are nine to five." : "The planted answer is forty-two.");
        }
    }

    @Test
    void givenTheSameServerAtAnAddressNotAllowed_whenAUrlSourceIsCreated_thenItFailsAsPrivateAndNothingIsAsked() {
        // given
        int before = pageRequests.get();
        // when / then
        assertThat(failure("http://127.0.0.1:" + port + "/page")).contains("private network");
        assertThat(pageRequests.get()).isEqualTo(before);
    }

    @Test
    void givenAnAllowedHostRedirectingIntoAPrivateAddress_whenFetched_thenTheHopIsRefused() {
        // given
        int before = pageRequests.get();
        // when / then
        assertThat(failure("http://localhost:" + port + "/to-private")).contains("127.0.0.1", "private network");
        assertThat(pageRequests.get()).isEqualTo(before);
    }

    @Test
    void givenAChunkedBodyOverTheFileLimit_whenFetched_thenTheSourceFailsAndTheStreamIsCutOff() {
        // when / then
        assertThat(failure("http://localhost:" + port + "/huge")).contains("larger than 10485760 bytes");
        server.stop(1);
        assertThat(hugeStreamed.get()).isLessThan(40L * MIB);
    }

    @Test
    void givenAnUpstream404_whenFetched_thenTheSourceFailsWithTheStatusAsItsReason() {
        assertThat(failure("http://localhost:" + port + "/missing")).contains("answered HTTP 404");
    }
}
