package ai.convo.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** A bare Reactor Netty server with the handler: Netty's own refusals get problem bodies, nothing else changes. */
class NettyRefusalsTest {

    static DisposableServer server;

    @BeforeAll
    static void start() {
        server = NettyRefusals.install(HttpServer.create().host("127.0.0.1").port(0)
                .handle((request, response) -> response.header("Content-Type", "text/plain")
                        .sendString(Mono.just("ok")))).bindNow();
    }

    @AfterAll
    static void stop() {
        server.disposeNow();
    }

    private static String raw(String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void assertProblem(String response, int status, String detail) {
        assertProblem(response, status, detail, null);
    }

    /** {@code instance}: the path expected, or null for a request line that could not be read (its trace id). */
    private static void assertProblem(String response, int status, String detail, String instance) {
        assertThat(response).startsWith("HTTP/1.1 " + status + " ");
        String traceId = response.substring(response.toLowerCase(java.util.Locale.ROOT).indexOf("x-trace-id: ") + 12);
        traceId = traceId.substring(0, traceId.indexOf("\r\n"));
        assertThat(response).contains("\"instance\":\"" + (instance != null ? instance : "urn:trace:" + traceId) + "\"",
                "\"traceId\":\"" + traceId + "\"");
        assertThat(response.toLowerCase(java.util.Locale.ROOT)).contains("content-type: application/problem+json",
                "access-control-allow-origin: *", "x-trace-id: ");
        String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(body).startsWith("{\"type\":").contains("\"status\":" + status + ",", detail, "\"code\":\"1000\"");
    }

    @Test
    void givenA20000CharacterUri_then414WithAProblemBody() throws Exception {
        assertProblem(raw("GET /x?q=" + "x".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414,
                "request URI is longer than the server accepts");
    }

    @Test
    void givenHeadersOverTheLimit_then431WithAProblemBody() throws Exception {
        assertProblem(raw("GET /x?q=1 HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(100_000) + "\r\n\r\n"), 431,
                "request headers are larger than the server accepts (64 KB in total)", "/x");
    }

    @Test
    void givenSomethingThatIsNotHttp_then400WithAProblemBody() throws Exception {
        assertProblem(raw("\u0001\u0002 not http at all\r\n\r\n"), 400, "not valid HTTP");
    }

    @Test
    void givenAnOrdinaryRequest_thenTheHandlerAnswersUntouched() throws Exception {
        String response = raw("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 200 ").endsWith("ok").doesNotContain("problem+json");
    }

    @Test
    void givenMalformedHeaders_then400WithAProblemBodyNamingThePath() throws Exception {
        for (String request : java.util.List.of(
                "GET /a/b HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n",
                "POST /a/b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "GET /a/b HTTP/1.1\r\nHost: x\rX-A: b\r\n\r\n")) {
            assertProblem(raw(request), 400, "not valid HTTP", "/a/b");
        }
    }

    @Test
    void givenAnHttpVersionOtherThan10Or11_then505WithAProblemBody() throws Exception {
        assertProblem(raw("GET /a HTTP/9.9\r\nHost: x\r\n\r\n"), 505, "HTTP/9.9 is not supported", "/a");
    }

    @Test
    void givenRawUtf8BytesInThePath_then400SayingToPercentEncodeThem() throws Exception {
        assertProblem(raw("GET /caf\u00c3\u00a9 HTTP/1.1\r\nHost: x\r\n\r\n"), 400, "percent-encode it as UTF-8",
                "/caf%C3%A9");
    }

    @Test
    void givenHttp11WithoutHost_then400_andHttp10WithoutHost_thenServed() throws Exception {
        assertProblem(raw("GET /a HTTP/1.1\r\n\r\n"), 400, "must carry a Host header", "/a");
        assertThat(raw("GET /x HTTP/1.0\r\n\r\n")).containsPattern("^HTTP/1\\.[01] 200 ").endsWith("ok");
    }
}
