package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/**
 * The first snapshots of fresh projects, requested at once: each request creates the project's snapshot registry
 * if it is missing, and all but one lose that creation. Each must then be decided on the registry that now exists
 * (202, or a 4xx such as the project's limit of 10 or the organisation's write limit), never a 500.
 */
class SnapshotFirstCreationRaceApiTest extends ApiTestBase {

    private static final int PROJECTS = 5;
    private static final int REQUESTS = 20;

    @Test
    void givenFreshProjects_whenTheirFirstSnapshotsAreRequestedConcurrently_thenEachIsAcceptedOrA4xx() {
        WebClient client = WebClient.create("http://localhost:" + environment.getProperty("local.server.port") + "/new");
        for (int round = 0; round < PROJECTS; round++) {
            // given
            String projectId = (String) createProject(ADMIN_KEY, "Race " + UUID.randomUUID(), "en-US").get("_id");
            // when
            List<ResponseEntity<String>> answers = Flux.range(0, REQUESTS)
                    .flatMap(i -> client.post().uri("/v2.0/snapshots").header("X-API-Key", ADMIN_KEY)
                            .contentType(MediaType.APPLICATION_JSON)
                            .bodyValue(Map.of("projectId", projectId, "name", "S" + i))
                            .exchangeToMono(response -> response.toEntity(String.class)), REQUESTS)
                    .collectList().block();
            // then
            assertThat(answers).hasSize(REQUESTS).allSatisfy(answer -> assertThat(answer.getStatusCode().is2xxSuccessful()
                    || answer.getStatusCode().is4xxClientError()).as(answer.toString()).isTrue());
            assertThat(answers).anyMatch(answer -> answer.getStatusCode().value() == 202);
        }
    }
}
