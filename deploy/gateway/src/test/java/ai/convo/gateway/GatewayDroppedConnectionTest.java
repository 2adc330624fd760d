package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A replica that accepts a request and dies before answering (what a SIGKILL in flight looks like to the gateway):
 * the read is sent to the next replica and answered; the write is not sent again, since the dead replica may have
 * applied it, and the client gets a 5xx for it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("integration")
class GatewayDroppedConnectionTest {

    /** Answers health checks, and drops every other request's connection (RST) once it has read it. */
    static final class Dropper implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger dropped = new AtomicInteger();

        Dropper() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread accept = new Thread(this::serve, "dropper");
            accept.setDaemon(true);
            accept.start();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    Thread handler = new Thread(() -> handle(connection), "dropper-connection");
                    handler.setDaemon(true);
                    handler.start();
                } catch (IOException ignored) {
                    // closed
                }
            }
        }

        private void handle(Socket connection) {
            try (connection) {
                String head = readHead(connection.getInputStream());
                if (head.startsWith("GET /new/health")) {
                    OutputStream out = connection.getOutputStream();
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } else if (!head.isEmpty()) {
                    dropped.incrementAndGet();
                    connection.setSoLinger(true, 0);
                }
            } catch (IOException ignored) {
                // the peer went first
            }
        }

        private static String readHead(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                head.append((char) c);
                if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                    break;
                }
            }
            return head.toString();
        }

        String uri() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static final Dropper QUERY_DYING;
    static final Dropper COMMAND_DYING;
    static final Backend QUERY = start("query");
    static final Backend COMMAND = start("command");
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    static {
        try {
            QUERY_DYING = new Dropper();
            COMMAND_DYING = new Dropper();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.query-uri", () -> QUERY_DYING.uri() + "," + QUERY.uri());
        registry.add("app.gateway.command-uri", () -> COMMAND_DYING.uri() + "," + COMMAND.uri());
    }

    @AfterAll
    static void stop() throws IOException {
        QUERY_DYING.close();
        COMMAND_DYING.close();
        QUERY.close();
        COMMAND.close();
    }

    private Map<String, Integer> spread(String method, int requests) throws Exception {
        Map<String, Integer> answers = new HashMap<>();
        for (int i = 0; i < requests; i++) {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/new/v2.0/projects"))
                    .timeout(Duration.ofSeconds(10))
                    .method(method, HttpRequest.BodyPublishers.ofString(method.equals("GET") ? "" : "{}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            answers.merge(response.statusCode() == 200 ? response.headers().firstValue("X-Backend").orElseThrow()
                    : "HTTP " + response.statusCode(), 1, Integer::sum);
        }
        return answers;
    }

    @Test
    void aReadCutOffByADyingReplicaIsAnsweredByTheNextAndAWriteIsNeverSentTwice() throws Exception {
        // when reads alternate over a replica that dies on each of them and a live one: every read is answered
        int droppedBefore = QUERY_DYING.dropped.get();
        assertEquals(Map.of("query", 10), spread("GET", 10));
        assertTrue(QUERY_DYING.dropped.get() > droppedBefore, "no read reached the dying replica");

        // when writes alternate the same way: the ones the dying replica took fail, and are not sent again
        int before = COMMAND.count.get();
        Map<String, Integer> writes = spread("POST", 10);
        int failed = 10 - writes.getOrDefault("command", 0);
        assertEquals(COMMAND_DYING.dropped.get(), failed, writes.toString());
        assertTrue(failed > 0, writes.toString());
        assertTrue(writes.keySet().stream().allMatch(k -> k.equals("command") || k.startsWith("HTTP 5")), writes.toString());
        assertEquals(writes.get("command"), COMMAND.count.get() - before);
    }

    private static Backend start(String name) {
        try {
            return new Backend(name, Duration.ZERO);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
