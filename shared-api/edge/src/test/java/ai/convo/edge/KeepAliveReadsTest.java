package ai.convo.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The Reactor Netty the servers run on keeps reading a keep-alive connection after it queued a request: two requests
 * in one write, the first answered late, the second at once, then a third on the same connection. On Reactor Netty
 * 1.3.6 the third is never read (reactor-netty #4361): the unanswered requests the test clients once re-sent.
 */
class KeepAliveReadsTest {

    @Test
    void givenAQueuedRequestAnsweredAtOnce_whenAThirdArrivesOnTheSameConnection_thenItIsAnswered() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .handle((request, response) -> {
                    accepted.incrementAndGet();
                    Mono<String> body = request.uri().equals("/first")
                            ? Mono.delay(Duration.ofMillis(50)).thenReturn("ok") : Mono.just("ok");
                    return response.sendString(body);
                }).bindNow(Duration.ofSeconds(5));
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write((request("/first") + request("/second")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponses(in, 2)).isEqualTo(2);
            out.write(request("/third").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponses(in, 1)).as("the third request's answer").isEqualTo(1);
            assertThat(accepted).hasValue(3);
        } finally {
            server.disposeNow();
        }
    }

    private static String request(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    /** Reads {@code count} whole responses (chunked "ok" bodies end with the last chunk). */
    private static int readResponses(InputStream in, int count) throws java.io.IOException {
        StringBuilder seen = new StringBuilder();
        int done = 0;
        byte[] buffer = new byte[4096];
        while (done < count) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            seen.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
            done = countOf(seen.toString(), "HTTP/1.1 200") == count && complete(seen.toString(), count) ? count : done;
        }
        return done;
    }

    private static boolean complete(String text, int count) {
        return countOf(text, "0\r\n\r\n") >= count || countOf(text, "\r\n\r\nok") >= count;
    }

    private static int countOf(String text, String part) {
        int found = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            found++;
        }
        return found;
    }
}
