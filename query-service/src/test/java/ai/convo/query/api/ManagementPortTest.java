package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A query replica's readiness includes its projection lag, and the lag is a metric; the API port has neither. */
class ManagementPortTest extends QueryTestBase {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The sample of one series in a Prometheus scrape, if it has one. */
    private static Optional<Double> sample(String scrape, String series) {
        return scrape.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()));
    }

    private static double value(String scrape, String series) {
        return sample(scrape, series).orElseThrow(() -> new AssertionError(series + " is not in the scrape:\n"
                + scrape.lines().filter(line -> line.startsWith("convo_")).toList()));
    }

    @Test
    void givenTheManagementPort_thenReadinessNamesDatabaseAndProjectionsAndTheLagIsAMetric() throws Exception {
        int management = Integer.parseInt(environment.getProperty("local.management.port"));
        int api = Integer.parseInt(environment.getProperty("local.server.port"));
        HttpResponse<String> readiness = get(management, "/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"database\":{\"status\":\"UP\"}", "\"projections\":{\"details\"",
                "\"maxLagEvents\":100");
        // a read, so the wait for its principal's writes is measured
        Caller caller = newOrganisation();
        http.get().uri("/v2.0/projects").header("X-API-Key", caller.apiKey()).exchange().expectStatus().isOk();
        String metrics = get(management, "/actuator/prometheus").body();
        // the lag of each processor, in events and in time, measured every second
        assertThat(value(metrics, "convo_projections_lag_events{processor=\"tokens\"}")).isNotNegative();
        assertThat(value(metrics, "convo_projections_lag_age_seconds{processor=\"tokens\"}")).isNotNegative();
        // this replica holds every segment of every processor (it is the only one)
        assertThat(value(metrics, "convo_events_segments_claimed{processor=\"tokens\"}")).isPositive();
        assertThat(value(metrics, "convo_reads_waited_seconds_count{outcome=\"none\"}")
                + value(metrics, "convo_reads_waited_seconds_count{outcome=\"reached\"}")).isPositive();
        assertThat(value(metrics, "convo_db_pool_connections{pool=\"r2dbc\",state=\"max\"}")).isPositive();
        assertThat(value(metrics, "convo_db_pool_connections{pool=\"jdbc\",state=\"idle\"}")).isNotNegative();
        assertThat(get(api, "/actuator/health").statusCode()).isEqualTo(404);
    }

    /** How many requests http.server.requests has counted under these tags (0 before the first). */
    private static double count(String scrape, String tags) {
        return sample(scrape, "http_server_requests_seconds_count{" + tags + "}").orElse(0.0);
    }

    @Test
    void givenReadsThatSucceedAreRefusedOrMatchNoRoute_thenEachIsMeasuredOnceWithSpringsTags() throws Exception {
        // given: the request metric's counts so far, for a route template, a refusal and no route
        int management = Integer.parseInt(environment.getProperty("local.management.port"));
        String ok = "error=\"none\",exception=\"none\",method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/new/v2.0/projects/{projectId}/snippets\"";
        String refused = "error=\"none\",exception=\"none\",method=\"GET\",outcome=\"CLIENT_ERROR\","
                + "status=\"401\",uri=\"UNKNOWN\"";
        String noRoute = "error=\"ResponseStatusException\",exception=\"ResponseStatusException\",method=\"GET\","
                + "outcome=\"CLIENT_ERROR\",status=\"404\",uri=\"NOT_FOUND\"";
        Caller caller = newOrganisation();
        Project project = project(caller, "metered", 0);
        String projectId = project.id();
        String before = get(management, "/actuator/prometheus").body();

        // when: two reads of a list, one without credentials, one of a path no route serves
        for (int i = 0; i < 2; i++) {
            // the project was appended outside the caller's writes: the read waits for its position explicitly
            http.get().uri("/v2.0/projects/" + projectId + "/snippets").header("X-API-Key", caller.apiKey())
                    .header("X-Event-Position", Long.toString(project.position())).exchange().expectStatus().isOk();
        }
        http.get().uri("/v2.0/projects/" + projectId + "/snippets").exchange().expectStatus().isUnauthorized();
        http.get().uri("/v2.0/no-such-route").header("X-API-Key", caller.apiKey()).exchange().expectStatus()
                .isNotFound();

        // then: each counted once, under the tags Spring's own observation gave them (dashboards keep working)
        String after = get(management, "/actuator/prometheus").body();
        assertThat(count(after, ok) - count(before, ok)).isEqualTo(2.0);
        assertThat(count(after, refused) - count(before, refused)).isEqualTo(1.0);
        assertThat(count(after, noRoute) - count(before, noRoute)).isEqualTo(1.0);
    }

    @Test
    void givenAGapNoEventFillsAndMoreThanTheBoundOfEventsAfterIt_thenTheReplicaStaysReady() throws Exception {
        // given: a position no event takes (an append that rolled back), which the projections' tokens keep as a gap
        // for 10,000 events, and more events after it than the lag readiness allows
        int management = Integer.parseInt(environment.getProperty("local.management.port"));
        jdbc.queryForObject("SELECT nextval(pg_get_serial_sequence('domain_event_entry', 'global_index'))", Long.class);
        Caller caller = newOrganisation();
        long last = 0;
        for (int i = 0; i < 60; i++) {
            last = project(caller, "after the gap " + i, 1000).position();
        }
        http.get().uri("/v2.0/projects").header("X-API-Key", caller.apiKey()).header("X-Event-Position",
                Long.toString(last)).exchange().expectStatus().isOk();

        // then: once the lag is measured again (every second), it counts no events behind, and readiness is UP
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
        HttpResponse<String> readiness = get(management, "/actuator/health/readiness");
        while (readiness.statusCode() != 200 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            readiness = get(management, "/actuator/health/readiness");
        }
        assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
        assertThat(value(get(management, "/actuator/prometheus").body(),
                "convo_projections_lag_events{processor=\"projects\"}")).isLessThan(100);
    }
}
