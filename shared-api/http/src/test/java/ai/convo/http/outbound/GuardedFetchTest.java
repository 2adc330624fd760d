package ai.convo.http.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The SSRF guard: address ranges, and real fetches from a loopback server with and without the operator's allowance. */
class GuardedFetchTest {

    private HttpServer server;
    private int port;
    private final java.util.concurrent.atomic.AtomicLong streamed = new java.util.concurrent.atomic.AtomicLong();

    @BeforeEach
    void serve() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/doc", exchange -> {
            byte[] body = "<html><body><p>Planted answer.</p></body></html>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/echo", exchange -> {
            byte[] body = (exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("X-Trace") + " "
                    + exchange.getRequestHeaders().getFirst("Host") + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-Answer", "a");
            exchange.getResponseHeaders().add("X-Answer", "b");
            exchange.sendResponseHeaders(201, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/see-other", exchange -> {
            exchange.getResponseHeaders().add("Location", "/echo");
            exchange.sendResponseHeaders(303, -1);
            exchange.close();
        });
        server.createContext("/to-literal", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + port + "/doc");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/to-doc", exchange -> {
            exchange.getResponseHeaders().add("Location", "/doc");
            exchange.sendResponseHeaders(301, -1);
            exchange.close();
        });
        server.createContext("/loop", exchange -> {
            exchange.getResponseHeaders().add("Location", "/loop");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/endless", exchange -> {
            // chunked (no Content-Length): only counting while it streams can stop it
            exchange.sendResponseHeaders(200, 0);
            byte[] block = new byte[64 * 1024];
            try (var out = exchange.getResponseBody()) {
                for (int i = 0; i < 1024; i++) {
                    out.write(block);
                    streamed.addAndGet(block.length);
                }
            } catch (java.io.IOException cutOff) {
                // the fetch gave up: what was written so far is what it cost
            }
        });
        server.createContext("/slow", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    out.write('x');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (java.io.IOException | InterruptedException cutOff) {
                // the fetch gave up
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static GuardedFetch fetch(Set<String> allowed) {
        return new GuardedFetch(new OutboundGuard(allowed), Duration.ofSeconds(5), 1_000_000, 3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "224.0.0.1", "::1", "::ffff:10.0.0.1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe", "2002:c0a8:0101::1"})
    void givenAnInternalAddress_whenChecked_thenNotPublic(String address) throws Exception {
        assertThat(OutboundGuard.isPublic(InetAddress.getByName(address))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1", "100.128.0.1"})
    void givenAPublicAddress_whenChecked_thenPublic(String address) throws Exception {
        assertThat(OutboundGuard.isPublic(InetAddress.getByName(address))).isTrue();
    }

    @Test
    void givenALoopbackServer_whenFetchedWithoutAllowance_thenRefusedAfterResolution() {
        // localhost is a name: only its resolution says loopback
        assertThatThrownBy(() -> fetch(Set.of()).get(URI.create("http://localhost:" + port + "/doc")))
                .isInstanceOf(OutboundGuard.Refused.class).hasMessageContaining("private network");
        assertThatThrownBy(() -> fetch(Set.of()).get(URI.create("http://127.0.0.1:" + port + "/doc")))
                .isInstanceOf(OutboundGuard.Refused.class);
    }

    @Test
    void givenTheOperatorAllowsTheHost_whenFetched_thenTheDocumentAndRelativeRedirectsAreFollowed() {
        GuardedFetch.Fetched fetched = fetch(Set.of("localhost")).get(URI.create("http://localhost:" + port + "/to-doc"));
        assertThat(new String(fetched.body(), StandardCharsets.UTF_8)).contains("Planted answer.");
        assertThat(fetched.uri().getPath()).isEqualTo("/doc");
        assertThat(fetched.contentType()).isEqualTo("text/html");
    }

    @Test
    void givenAnAllowedHostRedirectingToAnInternalAddress_whenFetched_thenTheHopIsRefused() {
        assertThatThrownBy(() -> fetch(Set.of("localhost")).get(URI.create("http://localhost:" + port + "/to-literal")))
                .isInstanceOf(OutboundGuard.Refused.class).hasMessageContaining("127.0.0.1");
    }

    @Test
    void givenBadUrlsOrEndlessRedirects_whenFetched_thenRefusedWithAReason() {
        assertThatThrownBy(() -> fetch(Set.of()).get(URI.create("file:///etc/passwd")))
                .isInstanceOf(OutboundGuard.Refused.class).hasMessageContaining("http and https");
        assertThatThrownBy(() -> fetch(Set.of()).get(URI.create("http://user:pw@example.com/")))
                .isInstanceOf(OutboundGuard.Refused.class).hasMessageContaining("credentials");
        assertThatThrownBy(() -> fetch(Set.of("localhost")).get(URI.create("http://localhost:" + port + "/loop")))
                .isInstanceOf(GuardedFetch.Failed.class).hasMessageContaining("redirects more than 3");
    }

    @Test
    void givenAChunkedBodyWithoutLengthOverTheLimit_whenFetched_thenRefusedWhileStreaming() {
        // given: 64 MiB offered in chunks, 1,000,000 bytes allowed
        // when / then
        assertThatThrownBy(() -> fetch(Set.of("localhost")).get(URI.create("http://localhost:" + port + "/endless")))
                .isInstanceOf(GuardedFetch.Failed.class).hasMessageContaining("larger than 1000000 bytes");
        server.stop(1);
        // the connection was cut near the limit, not after the whole body (socket buffers hold a few MiB at most)
        assertThat(streamed.get()).isLessThan(32L * 1024 * 1024);
    }

    @Test
    void givenAServerThatTrickles_whenFetched_thenTheTimeLimitEndsIt() {
        // given
        GuardedFetch fetch = new GuardedFetch(new OutboundGuard(Set.of("localhost")), Duration.ofSeconds(1), 1_000_000, 3);
        long started = System.nanoTime();
        // when / then
        assertThatThrownBy(() -> fetch.get(URI.create("http://localhost:" + port + "/slow")))
                .isInstanceOf(GuardedFetch.Failed.class).hasMessageContaining("within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void givenDnsThatAnswersPublicToTheCheckAndLoopbackToTheConnect_whenFetched_thenRefusedAndNothingIsAsked()
            throws Exception {
        // given: a rebinding name, public on its first answer, loopback on every later one
        java.util.concurrent.atomic.AtomicInteger answers = new java.util.concurrent.atomic.AtomicInteger();
        InetAddress publicAddress = InetAddress.getByName("93.184.216.34");
        OutboundGuard.Lookup rebinding = host -> answers.getAndIncrement() == 0 ? new InetAddress[] {publicAddress}
                : new InetAddress[] {InetAddress.getLoopbackAddress()};
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        server.createContext("/rebound", exchange -> {
            asked.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        GuardedFetch fetch = new GuardedFetch(new OutboundGuard(Set.of(), rebinding), Duration.ofSeconds(5), 1_000, 3);
        // when / then: the connection uses the resolver's (second, checked) answer, which is loopback
        assertThatThrownBy(() -> fetch.get(URI.create("http://rebind.example:" + port + "/rebound")))
                .isInstanceOf(OutboundGuard.Refused.class).hasMessageContaining("127.0.0.1");
        assertThat(answers.get()).isGreaterThanOrEqualTo(2);
        assertThat(asked.get()).isZero();
    }

    @Test
    void givenAnOperatorsHostList_whenParsed_thenCommasAndSpacesSeparateAndCaseIsIgnored() {
        OutboundGuard guard = OutboundGuard.allowing(" Docs.Example.com, localhost  intranet ,,");
        assertThat(guard.allowsHost("docs.example.com")).isTrue();
        assertThat(guard.allowsHost("LOCALHOST")).isTrue();
        assertThat(guard.allowsHost("intranet")).isTrue();
        assertThat(guard.allowsHost("example.com")).isFalse();
        assertThat(OutboundGuard.allowing("").allowsHost("")).isFalse();
    }

    @Test
    void givenAPostWithHeadersAndBody_whenSent_thenTheServerGetsThemAndAnyStatusIsAnswered() {
        // given
        GuardedFetch.Request post = new GuardedFetch.Request("post", URI.create("http://localhost:" + port + "/echo"),
                java.util.Map.of("X-Trace", "t-1", "Host", "elsewhere.example"), "{\"n\":1}".getBytes(StandardCharsets.UTF_8));
        // when
        GuardedFetch.Response answer = fetch(Set.of("localhost")).send(post, Duration.ofSeconds(5), 1_000);
        // then: the method, header and body arrived; Host stayed the client's; repeated answer headers are joined
        assertThat(answer.status()).isEqualTo(201);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8)).isEqualTo("POST t-1 localhost:" + port + " {\"n\":1}");
        assertThat(answer.headers()).containsEntry("x-answer", "a, b");
    }

    @Test
    void givenAPostAnswered303_whenSent_thenTheRedirectIsAGetWithoutBody() {
        GuardedFetch.Response answer = fetch(Set.of("localhost")).send(new GuardedFetch.Request("POST",
                URI.create("http://localhost:" + port + "/see-other"), null, "gone".getBytes(StandardCharsets.UTF_8)),
                Duration.ofSeconds(5), 1_000);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8)).isEqualTo("GET null localhost:" + port + " ");
        assertThat(answer.uri().getPath()).isEqualTo("/echo");
    }

    @Test
    void givenABodyOverTheLimitABadMethodOrAHeaderWithALineBreak_whenSent_thenFailedBeforeAnythingIsSent() {
        URI echo = URI.create("http://localhost:" + port + "/echo");
        GuardedFetch fetch = fetch(Set.of("localhost"));
        assertThatThrownBy(() -> fetch.send(new GuardedFetch.Request("PUT", echo, null, new byte[11]), Duration.ofSeconds(5), 10))
                .isInstanceOf(GuardedFetch.Failed.class).hasMessageContaining("at most 10 are sent");
        assertThatThrownBy(() -> fetch.send(new GuardedFetch.Request("TRACE", echo, null, null), Duration.ofSeconds(5), 10))
                .isInstanceOf(GuardedFetch.Failed.class).hasMessageContaining("must be one of");
        assertThatThrownBy(() -> fetch.send(new GuardedFetch.Request("GET", echo, java.util.Map.of("X-A", "1\r\nHost: x"), null),
                Duration.ofSeconds(5), 10)).isInstanceOf(GuardedFetch.Failed.class).hasMessageContaining("line break");
    }
}
