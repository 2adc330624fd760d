package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** What Netty refuses before any handler (URI or headers too long, not HTTP) is answered with a problem body too. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("integration")
class GatewayDecodeFailuresTest {

    static final Backend BACKEND = backend();

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.command-uri", BACKEND::uri);
        registry.add("app.gateway.query-uri", BACKEND::uri);
    }

    @AfterAll
    static void stop() {
        BACKEND.close();
    }

    private static Backend backend() {
        try {
            return new Backend("backend", Duration.ZERO);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends raw bytes, answers the whole response as text (the server closes the connection after a refusal). */
    private String raw(String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void assertProblem(String response, int status, String detail) {
        assertTrue(response.startsWith("HTTP/1.1 " + status + " "), response);
        String lower = response.toLowerCase(java.util.Locale.ROOT);
        assertTrue(lower.contains("content-type: application/problem+json"), response);
        assertTrue(lower.contains("access-control-allow-origin: *"), response);
        assertTrue(lower.contains("x-trace-id: "), response);
        String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertTrue(body.startsWith("{\"type\":"), body);
        assertTrue(body.contains("\"status\":" + status + ","), body);
        assertTrue(body.contains(detail), body);
    }

    @Test
    void givenA20000CharacterUri_whenSent_then414WithAProblemBody() throws Exception {
        // given / when
        String response = raw("GET /new/v2.0/projects?filter=" + "x".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        // then
        assertProblem(response, 414, "request URI is longer than the server accepts");
    }

    @Test
    void givenHeadersOverTheLimit_whenSent_then431WithAProblemBody() throws Exception {
        // given / when
        String response = raw("GET /new/v2.0/projects HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(100_000) + "\r\n\r\n");
        // then
        assertProblem(response, 431, "request headers are larger than the server accepts");
    }

    @Test
    void givenAnOrdinaryRequest_whenSent_thenTheBackendAnswersUntouched() throws Exception {
        // given / when
        String response = raw("GET /new/v2.0/projects HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        // then
        assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        assertEquals(-1, response.indexOf("problem+json"));
    }

    @Test
    void givenAnHttp10RequestWithoutHost_whenSent_thenItIsServed() throws Exception {
        // given / when: legal in HTTP/1.0
        String response = raw("GET /new/v2.0/projects HTTP/1.0\r\n\r\n");
        // then
        assertTrue(response.startsWith("HTTP/1.1 200 ") || response.startsWith("HTTP/1.0 200 "), response);
        assertTrue(response.endsWith("backend GET /new/v2.0/projects "), response);
    }

    @Test
    void givenRawUtf8BytesInThePath_whenSent_then400ProblemSayingToPercentEncode() throws Exception {
        // given / when
        String response = raw("GET /new/v2.0/proj\u00c3\u00a9cts HTTP/1.1\r\nHost: x\r\n\r\n");
        // then
        assertProblem(response, 400, "percent-encode it as UTF-8");
        assertTrue(response.contains("\"instance\":\"/new/v2.0/proj%C3%A9cts\""), response);
    }

    @Test
    void givenAnHttpVersionThatIsNot10Or11_whenSent_then505Problem() throws Exception {
        // given / when
        String response = raw("GET /new/v2.0/projects HTTP/9.9\r\nHost: x\r\n\r\n");
        // then
        assertProblem(response, 505, "HTTP/9.9 is not supported");
        assertTrue(response.contains("\"instance\":\"/new/v2.0/projects\""), response);
    }

    @Test
    void givenHeadersOf40KB_whenSent_thenForwarded_andOver64KBThe431SaysSo() throws Exception {
        // given / when / then: within what the 431 says
        String within = raw("GET /new/v2.0/projects HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: "
                + "y".repeat(40_000) + "\r\n\r\n");
        assertTrue(within.startsWith("HTTP/1.1 200 "), within);
        String over = raw("GET /new/v2.0/projects HTTP/1.1\r\nHost: x\r\nX-A: " + "y".repeat(70_000) + "\r\n\r\n");
        assertProblem(over, 431, "(64 KB in total)");
        assertTrue(over.contains("\"instance\":\"/new/v2.0/projects\""), over);
    }
}
