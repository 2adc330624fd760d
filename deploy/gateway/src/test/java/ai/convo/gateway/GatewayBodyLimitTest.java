package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A body over the services' 2 MiB limit gets the 413 problem body from the gateway, not a 502 from a cut connection. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("integration")
class GatewayBodyLimitTest {

    static final Backend COMMAND = backend("command");
    static final Backend QUERY = backend("query");
    static final int MIB = 1024 * 1024;

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.command-uri", COMMAND::uri);
        registry.add("app.gateway.query-uri", QUERY::uri);
    }

    @AfterAll
    static void stop() {
        COMMAND.close();
        QUERY.close();
    }

    private static Backend backend(String name) {
        try {
            return new Backend(name, Duration.ZERO);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpRequest.Builder post(HttpRequest.BodyPublisher body) {
        return post("/new/v2.0/projects", body);
    }

    private HttpRequest.Builder post(String path, HttpRequest.BodyPublisher body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(body);
    }

    private static final String UPLOAD = "/new/v2.0/knowledgestores/0123456789abcdef01234567/sources/upload";

    /** A multipart body of {@code fileBytes} bytes of file, as the client sends it. */
    private static byte[] form(int fileBytes) {
        String head = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"fake.txt\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n";
        String tail = "\r\n--b\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nfaq\r\n--b--\r\n";
        byte[] body = new byte[head.length() + fileBytes + tail.length()];
        System.arraycopy(head.getBytes(), 0, body, 0, head.length());
        System.arraycopy(tail.getBytes(), 0, body, head.length() + fileBytes, tail.length());
        return body;
    }

    private HttpRequest.Builder upload(HttpRequest.BodyPublisher body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + UPLOAD))
                .header("Content-Type", "multipart/form-data; boundary=b").POST(body);
    }

    private static void assertTooLarge(HttpResponse<String> response) {
        assertTooLarge(response, "2 MiB");
    }

    private static void assertTooLarge(HttpResponse<String> response, String limit) {
        assertEquals(413, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("*", response.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(response.body().startsWith("{\"type\":\"Payload Too Large\",\"title\":\"Payload Too Large Error\","
                + "\"status\":413,"), response.body());
        assertTrue(response.body().contains("(" + limit + ")"), response.body());
        assertFalse(response.body().contains("Exception"), response.body());
    }

    @Test
    void givenADeclaredLengthOverTheLimit_whenPosted_then413AndNothingReachesTheService() throws Exception {
        // given
        int before = COMMAND.count.get();
        // when
        HttpResponse<String> response = GatewayRoutingTest.send(post(HttpRequest.BodyPublishers.ofByteArray(
                new byte[20 * MIB])));
        // then
        assertTooLarge(response);
        assertEquals(before, COMMAND.count.get());
    }

    @Test
    void givenAChunkedBodyOverTheLimit_whenPosted_then413() throws Exception {
        // given: no Content-Length, so the gateway counts while it streams
        HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(new byte[3 * MIB]));
        // when / then
        assertTooLarge(GatewayRoutingTest.send(post(chunked)));
    }

    @Test
    void givenABodyUnderTheLimit_whenPosted_thenItIsForwarded() throws Exception {
        // given
        String body = "{\"name\":\"" + "x".repeat(MIB) + "\"}";
        // when
        HttpResponse<String> response = GatewayRoutingTest.send(post(HttpRequest.BodyPublishers.ofString(body)));
        // then
        assertEquals(200, response.statusCode());
        assertEquals(body.length(), COMMAND.last.get().body().length());
    }

    @Test
    void givenAKnowledgeUploadOfTheVendorsTenMegabytes_whenPosted_thenItIsForwarded() throws Exception {
        // given: a 10 MB file (the vendor's limit) in its form
        byte[] body = form(10 * MIB);
        // when
        HttpResponse<String> response = GatewayRoutingTest.send(upload(HttpRequest.BodyPublishers.ofByteArray(body)));
        // then
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(UPLOAD, COMMAND.last.get().uri());
        assertEquals(body.length, COMMAND.last.get().body().length());
    }

    @Test
    void givenAKnowledgeUploadOverItsLimit_whenPostedWithALengthOrChunked_then413NamingTheUploadLimit()
            throws Exception {
        // given
        int before = COMMAND.count.get();
        byte[] body = form(11 * MIB);
        // when / then
        assertTooLarge(GatewayRoutingTest.send(upload(HttpRequest.BodyPublishers.ofByteArray(body))),
                "10 MiB + 64 KiB");
        assertEquals(before, COMMAND.count.get());
        assertTooLarge(GatewayRoutingTest.send(upload(HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(body)))), "10 MiB + 64 KiB");
    }

    @Test
    void givenThreeMegabytesToAnotherRouteOfTheStore_whenPosted_thenTheUsualLimitHolds() throws Exception {
        // given: the sources route (not the upload), and the upload path with another method
        HttpRequest.Builder sources = post("/new/v2.0/knowledgestores/0123456789abcdef01234567/sources",
                HttpRequest.BodyPublishers.ofByteArray(new byte[3 * MIB]));
        HttpRequest.Builder put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + UPLOAD))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[3 * MIB]));
        // when / then
        assertTooLarge(GatewayRoutingTest.send(sources));
        assertTooLarge(GatewayRoutingTest.send(put));
    }

    @Test
    void givenLimits_whenDescribed_thenInMibAndKib() {
        assertEquals("2 MiB", BodySizeLimit.readable(2L * MIB));
        assertEquals("10 MiB + 64 KiB", BodySizeLimit.readable(10L * MIB + 64 * 1024));
        assertEquals("1000 bytes", BodySizeLimit.readable(1000));
    }
}
