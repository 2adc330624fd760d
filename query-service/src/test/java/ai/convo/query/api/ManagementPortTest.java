package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A query replica's readiness includes its projection lag, and the lag is a metric; the API port has neither. */
class ManagementPortTest extends QueryTestBase {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givenTheManagementPort_thenReadinessNamesDatabaseAndProjectionsAndTheLagIsAMetric() throws Exception {
        int management = Integer.parseInt(environment.getProperty("local.management.port"));
        int api = Integer.parseInt(environment.getProperty("local.server.port"));
        HttpResponse<String> readiness = get(management, "/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"database\":{\"status\":\"UP\"}", "\"projections\":{\"details\"",
                "\"maxLagEvents\":100");
        assertThat(get(management, "/actuator/prometheus").body()).contains("convo_projections_lag_events ");
        assertThat(get(api, "/actuator/health").statusCode()).isEqualTo(404);
    }
}
