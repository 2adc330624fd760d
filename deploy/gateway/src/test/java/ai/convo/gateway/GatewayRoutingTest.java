package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("integration")
class GatewayRoutingTest {

    static final Backend COMMAND = start("command");
    static final Backend QUERY = start("query");
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.command-uri", COMMAND::uri);
        registry.add("app.gateway.query-uri", QUERY::uri);
    }

    @AfterAll
    static void stopBackends() {
        COMMAND.close();
        QUERY.close();
    }

    @Test
    void readsGoToTheQueryServiceWithHeadersUnchanged() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("/new/v2.0/locales/de-DE?page=2&q=a%20b"))
                .header("X-API-Key", "key-123")
                .header("Authorization", "Bearer abc.def")
                .header("X-ContactCenter-Authorization", "Bearer cc")
                .header("Accept", "application/xml")
                .header("X-Event-Position", "17")
                .GET());

        assertEquals(200, response.statusCode());
        assertEquals("query GET /new/v2.0/locales/de-DE?page=2&q=a%20b ", response.body());
        Backend.Request seen = QUERY.last.get();
        assertEquals(List.of("key-123"), seen.headers().get("X-api-key"));
        assertEquals(List.of("Bearer abc.def"), seen.headers().get("Authorization"));
        assertEquals(List.of("Bearer cc"), seen.headers().get("X-contactcenter-authorization"));
        assertEquals(List.of("application/xml"), seen.headers().get("Accept"));
        assertEquals(List.of("17"), seen.headers().get("X-event-position"));
        assertEquals(List.of("127.0.0.1:" + port), seen.headers().get("Host"));
        // Response headers pass through, and the backend's CORS header is not duplicated.
        assertEquals(List.of("*"), response.headers().allValues("Access-Control-Allow-Origin"));
        assertEquals(List.of("42"), response.headers().allValues("X-Event-Position"));
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void givenAClientThatNamesAnAddress_whenProxied_thenTheLastForwardedForIsThePeerTheGatewaySaw() throws Exception {
        send(HttpRequest.newBuilder(url("/new/v2.0/projects")).header("X-Forwarded-For", "9.9.9.9, 8.8.8.8").GET());
        assertEquals(List.of("9.9.9.9, 8.8.8.8, 127.0.0.1"), QUERY.last.get().headers().get("X-forwarded-for"));

        send(HttpRequest.newBuilder(url("/new/v2.0/projects")).POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(List.of("127.0.0.1"), COMMAND.last.get().headers().get("X-forwarded-for"));
    }

    @Test
    void filesTasksMadeGoToTheCommandServiceAndOtherReadsToTheQueryService() throws Exception {
        HttpResponse<String> download = send(HttpRequest.newBuilder(
                url("/new/v2.0/snapshots/0123456789abcdef01234567/download?token=t")).GET());
        assertEquals("command", download.headers().firstValue("X-Backend").orElseThrow());
        assertEquals("command GET /new/v2.0/snapshots/0123456789abcdef01234567/download?token=t ", download.body());

        HttpResponse<String> read = send(HttpRequest.newBuilder(url("/new/v2.0/snapshots/0123456789abcdef01234567")).GET());
        assertEquals("query", read.headers().firstValue("X-Backend").orElseThrow());

        HttpResponse<String> export = send(HttpRequest.newBuilder(
                url("/new/v2.0/flows/0123456789abcdef01234567/intents/export/abcdef0123456789abcdef01")).GET());
        assertEquals("command", export.headers().firstValue("X-Backend").orElseThrow());
        HttpResponse<String> intent = send(HttpRequest.newBuilder(
                url("/new/v2.0/flows/0123456789abcdef01234567/intents/abcdef0123456789abcdef01")).GET());
        assertEquals("query", intent.headers().firstValue("X-Backend").orElseThrow());
    }

    @Test
    void headAndPreflightGoToTheQueryService() throws Exception {
        HttpResponse<String> head = send(HttpRequest.newBuilder(url("/new/health"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertEquals("query", head.headers().firstValue("X-Backend").orElseThrow());

        HttpResponse<String> preflight = send(HttpRequest.newBuilder(url("/new/v2.0/projects"))
                .header("Origin", "http://example.com")
                .header("Access-Control-Request-Method", "POST")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertEquals("query", preflight.headers().firstValue("X-Backend").orElseThrow());
        assertEquals(List.of("*"), preflight.headers().allValues("Access-Control-Allow-Origin"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PATCH", "PUT", "DELETE"})
    void writesGoToTheCommandServiceWithTheBody(String method) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("/new/v2.0/projects/p1"))
                .header("Content-Type", "application/json")
                .header("X-API-Key", "key-123")
                .method(method, HttpRequest.BodyPublishers.ofString("{\"name\":\"x\"}")));

        assertEquals(200, response.statusCode());
        assertEquals("command " + method + " /new/v2.0/projects/p1 {\"name\":\"x\"}", response.body());
        assertEquals(List.of("key-123"), COMMAND.last.get().headers().get("X-api-key"));
        assertTrue(COMMAND.last.get().headers().get("Content-type").get(0).startsWith("application/json"));
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Backend start(String name) {
        try {
            return new Backend(name, Duration.ZERO);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
