package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The gateway's /new/openapi.json is both services' documents merged; /new/docs/ shows it with swagger-ui. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("integration")
class GatewayApiDocsTest {

    static final HttpServer COMMAND = serve("""
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},
             "paths":{"/new/v2.0/locales":{"post":{"operationId":"createLocale"}},
                      "/new/health":{"get":{"operationId":"getHealth"}}},
             "components":{"schemas":{"Problem":{"type":"object"}}}}""");
    static final HttpServer QUERY = serve("""
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},
             "paths":{"/new/v2.0/locales":{"get":{"operationId":"indexLocales"}},
                      "/new/health":{"get":{"operationId":"getHealth"}}},
             "components":{"schemas":{"Problem":{"type":"object"},"ListEnvelope":{"type":"object"}}}}""");
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.command-uri", () -> "http://localhost:" + COMMAND.getAddress().getPort());
        registry.add("app.gateway.query-uri", () -> "http://localhost:" + QUERY.getAddress().getPort());
    }

    @AfterAll
    static void stop() {
        COMMAND.stop(0);
        QUERY.stop(0);
    }

    @Test
    void givenBothServicesDocuments_whenTheGatewaysIsAskedFor_thenItHasEveryOperationOfBoth() throws Exception {
        // when
        HttpResponse<String> response = get("/new/openapi.json");
        // then
        assertEquals(200, response.statusCode());
        JsonNode document = JsonMapper.builder().build().readTree(response.body());
        assertEquals("createLocale", document.at("/paths/~1new~1v2.0~1locales/post/operationId").asString());
        assertEquals("indexLocales", document.at("/paths/~1new~1v2.0~1locales/get/operationId").asString());
        assertEquals("getHealth", document.at("/paths/~1new~1health/get/operationId").asString());
        assertTrue(document.at("/components/schemas/ListEnvelope").isObject());
    }

    @Test
    void givenTheDocsPage_whenABrowserOpensIt_thenSwaggerUiComesFromTheGatewayItself() throws Exception {
        // when
        HttpResponse<String> page = get("/new/docs/");
        HttpResponse<String> bundle = get("/new/docs/swagger-ui-bundle.js");
        HttpResponse<String> initializer = get("/new/docs/initializer.js");
        // then
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("swagger-ui-bundle.js"), page.body());
        assertEquals(200, bundle.statusCode());
        assertTrue(bundle.body().length() > 100_000);
        assertTrue(initializer.body().contains("../openapi.json"));
        assertEquals(308, get("/new/docs").statusCode());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpServer serve(String document) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
            server.createContext("/", exchange -> {
                byte[] body = exchange.getRequestURI().getPath().equals("/new/openapi.json")
                        ? document.getBytes(StandardCharsets.UTF_8) : new byte[0];
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
