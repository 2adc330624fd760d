package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/** One organisation's burst of writes waits in its own line; only what overflows it is a 429, and no one else waits. */
@TestPropertySource(properties = {"app.limits.writes-per-organisation=1", "app.limits.writes-waiting-per-organisation=1",
        "app.limits.write-wait=2s"})
class OrganisationWriteLimitApiTest extends ApiTestBase {

    @Test
    void givenABurstOverTheLimit_whenItArrives_thenTheOverflowIs429WithRateLimitHeadersAndOthersAreServed() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "Burst", "en-US").get("_id");
        String otherKey = otherOrganisationKey("calm@example.com");
        String otherProject = (String) createProject(otherKey, "Calm", "en-US").get("_id");
        WebClient client = WebClient.create("http://localhost:" + environment.getProperty("local.server.port") + "/new");
        // when: 12 writes of one organisation at once, and one of another organisation's amid them
        List<ResponseEntity<String>> burst = Flux.range(0, 12)
                .flatMap(i -> client.post().uri("/v2.0/projects/{p}/snippets", projectId).header("X-API-Key", ADMIN_KEY)
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of("label", "Burst" + i, "type", "custom", "script", "x"))
                        .exchangeToMono(response -> response.toEntity(String.class)), 12)
                .collectList().block();
        ResponseEntity<String> calm = client.post().uri("/v2.0/projects/{p}/snippets", otherProject).header("X-API-Key", otherKey)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("label", "Calm", "type", "custom", "script", "x"))
                .exchangeToMono(response -> response.toEntity(String.class)).block();
        // then
        assertThat(burst).allMatch(r -> r.getStatusCode() == HttpStatus.CREATED || r.getStatusCode() == HttpStatus.TOO_MANY_REQUESTS);
        List<ResponseEntity<String>> refused = burst.stream().filter(r -> r.getStatusCode() == HttpStatus.TOO_MANY_REQUESTS).toList();
        assertThat(refused).isNotEmpty();
        assertThat(refused).allSatisfy(r -> {
            assertThat(r.getHeaders().getFirst("Retry-After")).isEqualTo("1");
            assertThat(r.getHeaders().getFirst("RateLimit-Policy")).isEqualTo("\"concurrent-writes\";q=1;qu=\"concurrent-requests\"");
            assertThat(r.getHeaders().getFirst("RateLimit")).isEqualTo("\"concurrent-writes\";r=0;t=1");
            assertThat(r.getBody()).contains("At most 1 run at a time per organisation");
        });
        long created = burst.stream().filter(r -> r.getStatusCode() == HttpStatus.CREATED).count();
        assertThat(created).isGreaterThanOrEqualTo(2);
        // a refused write stored nothing
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type LIKE '%TokenCreatedEvent' "
                + "AND convert_from(payload, 'UTF8') LIKE ?", Long.class, "%\"label\":\"Burst%")).isEqualTo(created);
        assertThat(calm.getStatusCode()).isEqualTo(HttpStatus.CREATED);
    }
}
