package ai.convo.command.training;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's generateNluScores: one sentence scored against the intents of one flow and locale (both
 * named by referenceId) by the flow's last trained model in that locale, every intent ranked by its probability,
 * in the vendor's documented {@code {scores: [...]}} shape (plus the model's id). It only reads; a flow never trained
 * in the locale is a 409 saying how to train it. Beyond the vendor: {@code modelId} scores against an earlier model
 * of the same flow and locale (any other id, another organisation's too, is a 404), and each score names the
 * sentence's features that decided it ({@code features}: the largest positive weights towards the intent).
 */
@RestController
class NluScoresController {

    static final int MAX_SENTENCE = 10_000;
    private static final int MAX_REFERENCE = 100;
    private static final int MAX_MODEL_ID = 200;
    /** How many deciding features each score names. */
    static final int TOP_FEATURES = 5;

    private final Commands commands;
    private final ProjectLookup projects;
    private final FlowLookup flows;
    private final LocaleLookup locales;
    private final IntentModels models;

    NluScoresController(Commands commands, ProjectLookup projects, FlowLookup flows, LocaleLookup locales,
                        IntentModels models) {
        this.commands = commands;
        this.projects = projects;
        this.flows = flows;
        this.locales = locales;
        this.models = models;
    }

    @PostMapping("/v2.0/projects/{projectId}/nlu/scores")
    public Mono<ResponseEntity<byte[]>> generateNluScores(ServerWebExchange exchange,
                                                          @AuthenticationPrincipal ApiPrincipal caller,
                                                          @PathVariable String projectId,
                                                          @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        JsonBody body = JsonBody.parse(exchange, raw, true)
                .allowOnly(Set.of("flowReferenceId", "localeReferenceId", "sentence", "modelId"));
        String flowReference = body.requiredString("flowReferenceId", 1, MAX_REFERENCE);
        String localeReference = body.requiredString("localeReferenceId", 1, MAX_REFERENCE);
        String sentence = body.requiredString("sentence", 1, MAX_SENTENCE);
        String asked = body.optionalString("modelId", 1, MAX_MODEL_ID);
        body.validate();
        return commands.blocking(() -> {
            projects.requireVisible(projectId, caller.actor());
            String flowId = flows.byReference(projectId, flowReference).orElseThrow(() -> DomainException.invalid(
                    "flowReferenceId", "No flow of project " + projectId + " has the referenceId " + flowReference
                            + "; give the referenceId of one of its flows."));
            String localeId = locales.byReference(projectId, localeReference).orElseThrow(() -> DomainException
                    .invalid("localeReferenceId", "No locale of project " + projectId + " has the referenceId "
                            + localeReference + "; give the referenceId of one of its locales."));
            String modelId = asked != null ? asked : models.lastTrained(flowId, localeId).orElseThrow(() ->
                    DomainException.conflict("Flow " + flowId + " has not been trained in locale " + localeId
                            + ": train it first (POST /v2.0/flows/" + flowId + "/intents/train with {\"localeId\": \""
                            + localeId + "\"}).", Map.of("flowId", flowId, "localeId", localeId)));
            if (asked != null && !models.trainedFor(flowId, localeId, asked)) {
                throw DomainException.notFound("No model " + asked + " was trained for flow " + flowId + " in locale "
                        + localeId + "; give the modelId of one of its trainings there (a scores answer or the "
                        + "flow's training names it), or leave modelId out for its last.");
            }
            IntentModel model = models.model(modelId).orElseThrow(() -> DomainException.conflict((asked != null
                    ? "The model " : "The last model ") + "trained for flow " + flowId + " in locale " + localeId
                    + " (" + modelId + ") is no longer stored; train the flow again to derive it.",
                    Map.of("flowId", flowId, "modelId", modelId)));
            Map<String, List<IntentModel.Contribution>> decided = model.contributions(sentence, TOP_FEATURES);
            List<Map<String, Object>> scores = new ArrayList<>();
            for (IntentModel.Score score : model.rank(sentence)) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("id", score.intentId());
                item.put("name", score.intentName());
                item.put("score", score.score());
                item.put("negated", false);
                item.put("confirmationSentence", null);
                item.put("confirmationSentences", List.of());
                item.put("disambiguationSentence", null);
                item.put("flow", flowReference);
                List<Map<String, Object>> features = new ArrayList<>();
                for (IntentModel.Contribution contribution : decided.getOrDefault(score.intentId(), List.of())) {
                    Map<String, Object> feature = new LinkedHashMap<>();
                    feature.put("feature", contribution.feature());
                    feature.put("weight", contribution.weight());
                    features.add(feature);
                }
                item.put("features", features);
                scores.add(item);
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("scores", scores);
            answer.put("modelId", modelId);
            return answer;
        }).map(answer -> ApiResponses.ok(exchange, media, new Representation.Single("scores", answer)));
    }
}
