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
        assertThat(response).startsWith("HTTP/1.1 " + status + " ");
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
        assertProblem(raw("GET /x HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(100_000) + "\r\n\r\n"), 431,
                "request headers are larger than the server accepts");
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
}
