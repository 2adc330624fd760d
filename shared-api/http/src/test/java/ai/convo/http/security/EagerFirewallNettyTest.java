package ai.convo.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The response-header check on Reactor Netty, where it reads Netty's own headers: clean headers pass, CR or LF never
 * reach the wire (Netty itself refuses them as they are added; the firewall's check stays behind it).
 */
class EagerFirewallNettyTest {

    private DisposableServer server;
    private final java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void serve() {
        EagerFirewall firewall = new EagerFirewall();
        // a handler that puts text of its own making into a response header (the request itself is clean)
        var handler = WebHttpHandlerBuilder.webHandler(exchange -> firewall.getFirewalledExchange(exchange)
                .flatMap(firewalled -> {
                    String path = firewalled.getRequest().getPath().value();
                    firewalled.getResponse().getHeaders().add("X-Echo",
                            path.equals("/crlf") ? "a\r\nSet-Cookie: injected" : "plain text");
                    return firewalled.getResponse().setComplete();
                }).doOnError(failed::set)).build();
        server = HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
    }

    @AfterEach
    void stop() {
        server.disposeNow();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givenACleanHeader_whenAnswered_thenItIsSent() throws Exception {
        HttpResponse<String> response = get("/clean");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Echo")).contains("plain text");
    }

    @Test
    void givenAHeaderWithCrLf_whenAnswered_thenItIsRefusedAndNothingIsInjected() throws Exception {
        HttpResponse<String> response = get("/crlf");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(response.headers().firstValue("X-Echo")).isEmpty();
        assertThat(failed.get()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("X-Echo");
    }
}
