package ai.convo.command.intent;

import ai.convo.contract.common.Ids;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.problem.ApiProblem;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's operations that need an NLU service (generateSentences, trainIntents, trainAllProjectFlows):
 * this server stores and lists intents and their sentences but runs no NLU, so these answer 501 saying so, rather
 * than a 405 or 404 that would read as a wrong path.
 */
@RestController
class NluOperations {

    private static ApiProblem noNlu(String what) {
        return new ApiProblem(HttpStatus.NOT_IMPLEMENTED, what + " needs an NLU service, which this server does not "
                + "run: intents and their example sentences are stored and listed, nothing is trained or generated.",
                Map.of("nlu", "not available on this server"));
    }

    @PostMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences/generate")
    public Mono<ResponseEntity<byte[]>> generateSentences(ServerWebExchange exchange, @PathVariable String flowId,
                                                          @PathVariable String intentId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        return Mono.error(noNlu("Generating example sentences"));
    }

    @PostMapping("/v2.0/flows/{flowId}/intents/train")
    public Mono<ResponseEntity<byte[]>> trainIntents(ServerWebExchange exchange, @PathVariable String flowId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        return Mono.error(noNlu("Training a flow's intents"));
    }

    @PostMapping("/v2.0/projects/{projectId}/trainallflows")
    public Mono<ResponseEntity<byte[]>> trainAllFlows(ServerWebExchange exchange, @PathVariable String projectId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        return Mono.error(noNlu("Training a project's flows"));
    }
}
