package ai.convo.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;

class HangWatchTest {

    @Test
    void givenAServerThatNeverAnswersTheFirstConnection_whenRequesting_thenItIsReportedAndFailsWithoutASecondTry() throws Exception {
        // given: the first connection is accepted and never answered; later ones get a 200
        AtomicInteger connections = new AtomicInteger();
        List<Socket> held = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket socket = server.accept();
                        if (connections.incrementAndGet() == 1) {
                            held.add(socket);
                            continue;
                        }
                        InputStream in = socket.getInputStream();
                        byte[] buffer = new byte[4096];
                        String head = "";
                        while (!head.contains("\r\n\r\n")) {
                            int n = in.read(buffer);
                            if (n < 0) {
                                break;
                            }
                            head += new String(buffer, 0, n, StandardCharsets.US_ASCII);
                        }
                        OutputStream out = socket.getOutputStream();
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        socket.close();
                    }
                } catch (Exception closed) {
                    // the server socket closed: the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            AtomicInteger reports = new AtomicInteger();
            WebTestClient client = WebTestClient.bindToServer()
                    .baseUrl("http://localhost:" + server.getLocalPort())
                    .responseTimeout(Duration.ofSeconds(10))
                    .filter(HangWatch.reportUnanswered(Duration.ofSeconds(1), () -> "report " + reports.incrementAndGet()))
                    .build();
            // when
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() ->
                    client.get().uri("/anything").exchange());
            // then: reported once, failed, and no second connection was opened for it
            assertThat(failure).hasMessageContaining("No answer after 1 s: GET");
            assertThat(reports).hasValue(1);
            assertThat(connections).hasValue(1);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
