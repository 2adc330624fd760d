package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowIntentsTrainedEvent;
import ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the read side serves of a training: the intent list's feedbackReport from the last full training's
 * cross-validation (copied from intent_model when FlowIntentsTrained is projected), the centroid heuristic for an
 * intent the model does not know, and readFlow's exact isTrainingOutOfDate. Events and the intent_model row are
 * written as the command service's training writes them (TrainingApiTest trains over HTTP and checks that row).
 */
class IntentTrainingReadTest extends IntentQuerySupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Caller caller;
    private Project project;
    private String flow;
    private String en;
    private long position;
    private final String flights = Ids.newId();
    private final String weather = Ids.newId();
    private final String hotels = Ids.newId();
    /** intentId, name, text of every sentence, as the training set holds them. */
    private final List<String[]> set = new ArrayList<>();

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Training reads", 1000);
        en = project.primaryLocaleId();
        flow = newFlow(caller, project.id(), 1000);
        intent(caller, project.id(), flow, flights, "Flights", null, 1000);
        intent(caller, project.id(), flow, weather, "Weather", null, 1000);
        position = intent(caller, project.id(), flow, hotels, "Hotels", null, 1000);
        say(flights, "Flights", "book a flight");
        say(weather, "Weather", "weather today");
        say(hotels, "Hotels", "weather today please");
    }

    private String say(String intentId, String name, String text) {
        String id = Ids.newId();
        position = sentence(caller, project.id(), flow, intentId, id, en, text, 1000);
        set.add(new String[] {intentId, name, text, id});
        return id;
    }

    private void unsay(String sentenceId) {
        String[] line = set.stream().filter(l -> l[3].equals(sentenceId)).findFirst().orElseThrow();
        set.remove(line);
        position = append(line[0], new SentenceDeletedEvent(sentenceId, line[0], flow, project.id(),
                caller.organisationId(), en, caller.userId(), 2000));
    }

    /** The training set's hash as the write side's TrainingSet defines it (a frozen format). */
    private String hash() throws Exception {
        List<byte[]> lines = new ArrayList<>();
        for (String[] l : set) {
            lines.add((l[0] + '\t' + Normalizer.normalize(l[1], Normalizer.Form.NFC) + '\t'
                    + Normalizer.normalize(l[2], Normalizer.Form.NFC) + '\n').getBytes(StandardCharsets.UTF_8));
        }
        lines.sort(Arrays::compareUnsigned);
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        lines.forEach(digest::update);
        return HexFormat.of().formatHex(digest.digest());
    }

    /** A training as TrainIntentsWork records it: the model row (with a report in full mode), then the event. */
    private String train(String mode, Map<String, Object> report) throws Exception {
        String modelId = Ids.newId() + Ids.newId();
        jdbc.update("INSERT INTO intent_model (model_id, model, report) VALUES (?, ?, ?)", modelId,
                new byte[] {1}, report == null ? null : JSON.writeValueAsString(report));
        position = append(flow, new FlowIntentsTrainedEvent(flow, project.id(), caller.organisationId(), en,
                Ids.newId(), mode, modelId, hash(), position, 3, set.size(), report == null ? null : 0.667,
                report == null ? null : 0.6, caller.userId(), 3000));
        return modelId;
    }

    private static Map<String, Object> crossValidated(String weather, String hotels) {
        Map<String, Object> overlap = Map.of("findings", List.of(Map.of("type", "poorFScore"),
                Map.of("type", "fewSentences"), Map.of("type", "strongOverlap", "intentIds", List.of(hotels),
                        "intentNames", List.of("Hotels"))), "info", Map.of("fScore", 0.0));
        return Map.of("flow", Map.of("findings", List.of(Map.of("type", "fairAccuracy")),
                        "info", Map.of("accuracy", 0.667, "fScore", 0.6)),
                "intents", Map.of(weather, overlap),
                "sentences", List.of());
    }

    private Map<String, Object> readFlow() {
        return get("/v2.0/flows/" + flow, caller, position);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> reportOf(String intentId) {
        Map<String, Object> page = get("/v2.0/flows/" + flow + "/intents?includeFeedbackReport=true&limit=100",
                caller, position);
        return (Map<String, Object>) items(page).stream().filter(i -> intentId.equals(i.get("_id"))).findFirst()
                .orElseThrow().get("feedbackReport");
    }

    @Test
    void givenAFullTraining_whenTheIntentsAreListed_thenTheCrossValidatedReportNamesTheOverlap() throws Exception {
        // given an untrained flow: out of date, no flow report
        assertThat(readFlow()).containsEntry("isTrainingOutOfDate", true).containsEntry("feedbackReport", null);

        // when it is trained in full
        train("full", crossValidated(weather, hotels));

        // then the list serves the model's report for Weather, naming Hotels; the flow its accuracy
        assertThat(reportOf(weather)).isEqualTo(((Map<?, ?>) crossValidated(weather, hotels).get("intents"))
                .get(weather));
        Map<String, Object> read = readFlow();
        assertThat(read).containsEntry("isTrainingOutOfDate", false);
        assertThat(read.get("feedbackReport")).isEqualTo(crossValidated(weather, hotels).get("flow"));
    }

    @Test
    void givenATrainedFlow_whenEditedUndoneAndRetrained_thenIsTrainingOutOfDateFollowsTheSetExactly()
            throws Exception {
        // given
        train("quick", null);
        assertThat(readFlow()).containsEntry("isTrainingOutOfDate", false).containsEntry("feedbackReport", null);

        // when a sentence is added: out of date
        String added = say(hotels, "Hotels", "a room with a view");
        assertThat(readFlow()).containsEntry("isTrainingOutOfDate", true);

        // when it is deleted again: the set is the trained one
        unsay(added);
        assertThat(readFlow()).containsEntry("isTrainingOutOfDate", false);

        // when edited again and retrained: up to date
        say(weather, "Weather", "Ünïcödé wéather");
        assertThat(readFlow()).containsEntry("isTrainingOutOfDate", true);
        train("quick", null);
        assertThat(readFlow()).containsEntry("isTrainingOutOfDate", false);

        // and another organisation cannot read the flow at all
        problem("/v2.0/flows/" + flow, newOrganisation(), position, 404);
    }

    @Test
    void givenARestoredTraining_whenTheFlowIsRead_thenItIsTheLastTrainingWithItsReport() throws Exception {
        // given a full training, then a sentence added and a quick training of the changed set
        String pinnedModel = train("full", crossValidated(weather, hotels));
        String pinnedHash = hash();
        String added = say(hotels, "Hotels", "a room with a view");
        train("quick", null);
        assertThat(readFlow()).containsEntry("feedbackReport", null);

        // when a restore removes the sentence and brings the pinned training back
        unsay(added);
        position = append(flow, new FlowIntentsTrainingRestoredEvent(flow, project.id(), caller.organisationId(), en,
                "full", pinnedModel, pinnedHash, caller.userId(), 4000));

        // then (once read at the restore's position) the flow is up to date, with the pinned model's report
        Map<String, Object> read = readFlow();
        assertThat(read).containsEntry("isTrainingOutOfDate", false);
        assertThat(read.get("feedbackReport")).isEqualTo(crossValidated(weather, hotels).get("flow"));
        assertThat(jdbc.queryForObject("SELECT model_id FROM intent_training WHERE flow_id = ?", String.class, flow))
                .isEqualTo(pinnedModel);
    }
}
