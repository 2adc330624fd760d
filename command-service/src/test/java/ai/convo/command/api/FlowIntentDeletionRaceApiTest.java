package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * Deleting a flow while one of its intents (named by a state) is deleted: both take the flow's lookup row before
 * any aggregate, so neither waits on the other in the opposite order. Without that order the pair could stall
 * until a lock timed out.
 */
class FlowIntentDeletionRaceApiTest extends FlowApiSupport {

    @Test
    void aFlowAndOneOfItsIntentsDeletedAtOnceBothFinishPromptly() {
        for (int round = 0; round < 8; round++) {
            // given a flow whose state names an intent
            String flowId = (String) newFlow("Race " + round).get("_id");
            String intentId = (String) http.post().uri("/v2.0/flows/{f}/intents", flowId).header("X-API-Key", ADMIN_KEY)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Doomed"))
                    .exchange().expectStatus().isCreated()
                    .expectBody(Map.class).returnResult().getResponseBody().get("_id");
            createState(ADMIN_KEY, flowId, Map.of("name", "S", "intentIds", List.of(intentId)));

            // when both are deleted at the same moment
            long started = System.nanoTime();
            CompletableFuture<Integer> intent = CompletableFuture.supplyAsync(() -> http.delete()
                    .uri("/v2.0/flows/{f}/intents/{i}", flowId, intentId).header("X-API-Key", ADMIN_KEY)
                    .exchange().returnResult(Void.class).getStatus().value());
            CompletableFuture<Integer> flow = CompletableFuture.supplyAsync(() -> http.delete()
                    .uri("/v2.0/flows/{f}", flowId).header("X-API-Key", ADMIN_KEY)
                    .exchange().returnResult(Void.class).getStatus().value());

            // then both answer promptly: the flow is deleted, the intent deleted or already gone with its flow
            assertThat(flow.join()).isEqualTo(204);
            assertThat(intent.join()).isIn(204, 404);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        }
    }
}
