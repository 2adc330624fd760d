package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

/** The gateway's health and metrics on its management port; on the proxy port the path is the backends' (503 here). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"app.gateway.command-uri=http://127.0.0.1:1", "app.gateway.query-uri=http://127.0.0.1:1"})
@Tag("integration")
class GatewayManagementTest {

    @Autowired
    Environment environment;

    private static HttpResponse<String> get(String port, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givenTheManagementPort_thenLivenessReadinessAndMetricsAnswer() throws Exception {
        String management = environment.getProperty("local.management.port");
        assertEquals("{\"status\":\"UP\"}", get(management, "/actuator/health/liveness").body());
        assertEquals(200, get(management, "/actuator/health/readiness").statusCode());
        assertTrue(get(management, "/actuator/prometheus").body().contains("jvm_memory_used_bytes"));
        // the proxy port sends every path to a backend (none answers here): the gateway's own 503, no actuator
        assertEquals(503, get(environment.getProperty("local.server.port"), "/actuator/health").statusCode());
    }
}
