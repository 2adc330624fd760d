package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Several replicas behind one base URL: requests spread over them, a dead replica costs no read and no write (a
 * refused connection reached no replica, so the request goes to the next one), and a write is never sent twice.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("integration")
class GatewayReplicasTest {

    static final Backend QUERY_A = start("query-a");
    static final Backend QUERY_B = start("query-b");
    static final Backend COMMAND_A = start("command-a");
    static final Backend COMMAND_B = start("command-b");
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        registry.add("app.gateway.query-uri", () -> QUERY_A.uri() + "," + QUERY_B.uri());
        registry.add("app.gateway.command-uri", () -> COMMAND_A.uri() + "," + COMMAND_B.uri());
    }

    @AfterAll
    static void stopBackends() {
        QUERY_A.close();
        QUERY_B.close();
        COMMAND_A.close();
        COMMAND_B.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.ofString(method.equals("GET") ? "" : "{}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private Map<String, Integer> spread(String method, int requests) throws Exception {
        Map<String, Integer> answeredBy = new HashMap<>();
        for (int i = 0; i < requests; i++) {
            HttpResponse<String> response = send(method, "/new/v2.0/projects");
            answeredBy.merge(response.statusCode() == 200
                    ? response.headers().firstValue("X-Backend").orElseThrow() : "HTTP " + response.statusCode(), 1, Integer::sum);
        }
        return answeredBy;
    }

    @Test
    @Order(1)
    void readsAndWritesSpreadOverTheReplicas() throws Exception {
        assertEquals(Map.of("query-a", 5, "query-b", 5), spread("GET", 10));
        assertEquals(Map.of("command-a", 5, "command-b", 5), spread("POST", 10));
    }

    @Test
    @Order(2)
    void aDeadQueryReplicaCostsNoRead() throws Exception {
        QUERY_A.close();

        assertEquals(Map.of("query-b", 20), spread("GET", 20));
    }

    @Test
    @Order(3)
    void aWriteRefusedByADeadReplicaGoesToTheLiveOneOnceAndKeepsItsBody() throws Exception {
        COMMAND_A.close();
        int before = COMMAND_B.count.get();

        Map<String, Integer> answeredBy = spread("POST", 20);

        // a refused connection reached no replica, so the write is sent to the next one: all 20 land, each once
        assertEquals(Map.of("command-b", 20), answeredBy);
        assertEquals(20, COMMAND_B.count.get() - before);
        assertEquals("{}", COMMAND_B.last.get().body());
    }

    private static Backend start(String name) {
        try {
            return new Backend(name, Duration.ZERO);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
