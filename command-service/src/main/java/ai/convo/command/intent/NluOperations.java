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
 * The official client's generateSentences: this server trains intent classifiers (see the training package) but
 * generates no text, so it answers 501 saying so, rather than a 405 or 404 that would read as a wrong path.
 */
@RestController
class NluOperations {

    private static ApiProblem noNlu(String what) {
        return new ApiProblem(HttpStatus.NOT_IMPLEMENTED, what + " needs a text generator, which this server does not "
                + "run: intents are trained (trainIntents) and scored, but no example sentences are generated.",
                Map.of("nlu", "sentence generation is not available on this server"));
    }

    @PostMapping("/v2.0/flows/{flowId}/intents/{intentId}/sentences/generate")
    public Mono<ResponseEntity<byte[]>> generateSentences(ServerWebExchange exchange, @PathVariable String flowId,
                                                          @PathVariable String intentId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        Ids.require("intentId", intentId);
        return Mono.error(noNlu("Generating example sentences"));
    }
}
