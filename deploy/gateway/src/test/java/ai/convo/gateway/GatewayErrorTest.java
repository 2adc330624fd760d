package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.cloud.gateway.server.webflux.httpclient.response-timeout=1s")
@Tag("integration")
class GatewayErrorTest {

    static final int DEAD_PORT = unusedPort();
    static final Backend SLOW_QUERY = slowBackend();

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.command-uri", () -> "http://127.0.0.1:" + DEAD_PORT);
        registry.add("app.gateway.query-uri", SLOW_QUERY::uri);
    }

    @AfterAll
    static void stopBackend() {
        SLOW_QUERY.close();
    }

    @Test
    void deadBackendGives503ProblemJsonWithCors() throws Exception {
        HttpResponse<String> response = GatewayRoutingTest.send(HttpRequest.newBuilder(url("/new/v2.0/projects"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));

        assertEquals(503, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(List.of("*"), response.headers().allValues("Access-Control-Allow-Origin"));
        assertEquals(List.of("1"), response.headers().allValues("Retry-After"));
        String traceId = response.headers().firstValue("X-Trace-Id").orElseThrow();
        assertTrue(traceId.matches("[0-9a-f]{32}"), traceId);
        String body = response.body();
        assertTrue(body.startsWith("{\"type\":\"Service Unavailable\",\"title\":\"Service Unavailable Error\","
                + "\"status\":503,"), body);
        assertTrue(body.contains("\"instance\":\"/new/v2.0/projects\""), body);
        assertTrue(body.contains("\"code\":\"503\""), body);
        assertTrue(body.contains("\"traceId\":\"" + traceId + "\""), body);
        assertTrue(body.endsWith("\"details\":{}}"), body);
        assertFalse(body.contains("Exception"), body);
    }

    @Test
    void slowBackendGives504() throws Exception {
        HttpResponse<String> response = GatewayRoutingTest.send(HttpRequest.newBuilder(url("/new/v2.0/projects")));

        assertEquals(504, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(response.body().contains("\"title\":\"Gateway Timeout Error\""), response.body());
        assertTrue(response.body().contains("\"code\":\"1000\""), response.body());
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static int unusedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Backend slowBackend() {
        try {
            return new Backend("slow-query", Duration.ofSeconds(3));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
