package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Health, readiness and metrics on the management port, without credentials (the port is the operator's, not the
 * API's), and nothing of them on the API port, whatever key is sent.
 */
class ManagementPortTest extends ApiTestBase {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    static HttpResponse<String> get(int port, String path, String key) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (key != null) {
            request.header("X-API-Key", key);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The value of the one sample {@code series} names in a Prometheus scrape. */
    static double value(String scrape, String series) {
        return scrape.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError(series + " is not in the scrape"));
    }

    @Test
    void givenTheManagementPort_thenLivenessReadinessAndMetricsAnswerAndTheApiPortHasNoneOfThem() throws Exception {
        // given: a command run, so its latency is measured
        int management = Integer.parseInt(environment.getProperty("local.management.port"));
        int api = Integer.parseInt(environment.getProperty("local.server.port"));
        createProject(ADMIN_KEY, "metered", "en-US");
        // when / then: probes answer without credentials, readiness names the database check
        assertThat(get(management, "/actuator/health/liveness", null).body()).isEqualTo("{\"status\":\"UP\"}");
        HttpResponse<String> readiness = get(management, "/actuator/health/readiness", null);
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"database\":{\"status\":\"UP\"}");
        String metrics = get(management, "/actuator/prometheus", null).body();
        assertThat(metrics).contains("convo_commands_seconds_count{command=\"CreateProjectCommand\",outcome=\"done\"}",
                "http_server_requests_seconds_count");
        // and: the pools, the task runner and the segments this replica holds
        assertThat(value(metrics, "convo_db_pool_connections{pool=\"jdbc\",state=\"max\"}")).isPositive();
        assertThat(value(metrics, "convo_db_pool_connections{pool=\"r2dbc\",state=\"max\"}")).isPositive();
        assertThat(value(metrics, "convo_db_pool_connections{pool=\"jdbc\",state=\"active\"}")).isNotNegative();
        assertThat(value(metrics, "convo_tasks_open{state=\"queued\"}")).isNotNegative();
        assertThat(value(metrics, "convo_tasks_open{state=\"leased\"}")).isNotNegative();
        assertThat(value(metrics, "convo_tasks_running")).isNotNegative();
        // and: the API port has none of it, a valid key or not
        assertThat(get(api, "/actuator/health", ADMIN_KEY).statusCode()).isEqualTo(404);
        assertThat(get(api, "/actuator/prometheus", null).statusCode()).isEqualTo(404);
        assertThat(get(api, "/new/actuator/health", ADMIN_KEY).statusCode()).isEqualTo(404);
    }
}
