package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * trainIntents and trainAllProjectFlows through the real routes and the real task runner: a Task that trains the
 * flow's intents read from the log, records FlowIntentsTrained and stores the model content-addressed; the same
 * log position trains the same bytes.
 */
class TrainingApiTest extends SnapshotWorkSupport {

    private static final Map<String, List<String>> INTENTS = Map.of(
            "Book flight", List.of("book a flight to paris", "I need a plane ticket", "fly me to london tomorrow",
                    "reserve a seat on a flight", "get me on the next plane", "flights to rome please"),
            "Weather", List.of("what is the weather today", "will it rain tomorrow", "how hot is it outside",
                    "weather forecast for berlin", "is it sunny", "do I need an umbrella"),
            "Hotel", List.of("book a hotel room", "I need a room for two nights", "reserve a hotel in paris",
                    "find me a place to stay", "hotel near the station", "a double room please"));

    private record Trip(String projectId, String localeId, String flowId) {
    }

    private Trip trip(String name) {
        Map<String, Object> project = createProject(ADMIN_KEY, name, "en-US");
        String projectId = id(project);
        String locale = (String) project.get("primaryLocaleReference");
        String flowId = id(created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", "Trips")));
        INTENTS.forEach((intent, sentences) -> {
            String intentId = id(created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents", Map.of("name", intent)));
            sentences.forEach(s -> created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents/" + intentId
                    + "/sentences", Map.of("text", s, "localeId", locale)));
        });
        return new Trip(projectId, locale, flowId);
    }

    private List<Map<String, Object>> trainedEvents(String flowId) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'modelId' AS model, "
                + "convert_from(payload, 'UTF8')::jsonb ->> 'requestedBy' AS by, "
                + "(convert_from(payload, 'UTF8')::jsonb ->> 'position')::bigint AS position, "
                + "convert_from(payload, 'UTF8')::jsonb ->> 'accuracy' AS accuracy FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND payload_type LIKE '%FlowIntentsTrainedEvent' ORDER BY global_index",
                flowId);
    }

    private String train(String flowId, Map<String, Object> body) {
        Map<String, Object> task = accepted("/v2.0/flows/" + flowId + "/intents/train", body);
        assertThat(task).containsEntry("type", "trainIntents").containsEntry("status", "queued");
        awaitDone((String) task.get("_id"));
        return (String) task.get("_id");
    }

    @Test
    void givenAFlowsIntents_whenTrainedTwiceAtOnePosition_thenTheSameModelIdAndBytes() {
        // given a flow with three intents of six sentences
        Trip trip = trip("Training");

        // when it is trained in full, then again quickly without an edit between
        String taskId = train(trip.flowId(), Map.of("mode", "full", "localeId", trip.localeId()));
        train(trip.flowId(), Map.of("mode", "quick"));

        // then both trainings recorded the same model, by the admin, at the same position, with full's metrics
        List<Map<String, Object>> events = trainedEvents(trip.flowId());
        assertThat(events).hasSize(2);
        assertThat(events.get(0).get("model")).isEqualTo(events.get(1).get("model"));
        assertThat(events.get(0).get("position")).isEqualTo(events.get(1).get("position"));
        assertThat(events.get(0).get("by")).isEqualTo(admin().userId());
        assertThat(events.get(0).get("accuracy")).isNotNull();
        assertThat(events.get(1).get("accuracy")).isNull();
        String modelId = (String) events.get(0).get("model");
        byte[] first = jdbc.queryForObject("SELECT model FROM intent_model WHERE model_id = ?", byte[].class, modelId);
        assertThat(jdbc.queryForObject("SELECT report IS NOT NULL FROM intent_model WHERE model_id = ?", Boolean.class,
                modelId)).isTrue();
        // the task moved through its steps: read, train, five folds, store, record
        Map<String, Object> task = jdbc.queryForMap("SELECT * FROM task_run WHERE task_id = ?", taskId);
        assertThat(task.get("status")).isEqualTo("done");

        // and a training from scratch (the cached model removed) derives the same bytes
        jdbc.update("DELETE FROM intent_model WHERE model_id = ?", modelId);
        train(trip.flowId(), Map.of("mode", "quick"));
        assertThat(trainedEvents(trip.flowId()).get(2).get("model")).isEqualTo(modelId);
        assertThat(jdbc.queryForObject("SELECT model FROM intent_model WHERE model_id = ?", byte[].class, modelId))
                .isEqualTo(first);

        // and an edit changes the model; undoing it gives the first model back
        String intentId = jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = ?",
                String.class, trip.flowId(), "Hotel");
        String sentence = id(created(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/" + intentId
                + "/sentences", Map.of("text", "a suite with a view", "localeId", trip.localeId())));
        train(trip.flowId(), Map.of("mode", "quick"));
        assertThat(trainedEvents(trip.flowId()).get(3).get("model")).isNotEqualTo(modelId);
        send(HttpMethod.DELETE, "/v2.0/flows/" + trip.flowId() + "/intents/" + intentId + "/sentences/" + sentence,
                null).expectStatus().is2xxSuccessful();
        train(trip.flowId(), Map.of("mode", "quick"));
        assertThat(trainedEvents(trip.flowId()).get(4).get("model")).isEqualTo(modelId);
    }

    @Test
    void givenWrongInput_whenTrainIsAsked_thenA400NamingItAndNoTask() {
        Trip trip = trip("Training input");
        long tasks = jdbc.queryForObject("SELECT count(*) FROM task_run", Long.class);
        for (Map<String, Object> body : List.of(Map.<String, Object>of("mode", "fast"),
                Map.<String, Object>of("localeId", "not-an-id"), Map.<String, Object>of("epochs", 3))) {
            send(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/train", body)
                    .expectStatus().isBadRequest()
                    .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        }
        // a locale of another project
        String other = (String) createProject(ADMIN_KEY, "Other", "de-DE").get("primaryLocaleReference");
        send(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/train", Map.of("localeId", other))
                .expectStatus().isBadRequest();
        // another organisation's flow is not there
        http.post().uri("/v2.0/flows/" + trip.flowId() + "/intents/train")
                .header("X-API-Key", otherOrganisationKey("trainer@other.example"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange()
                .expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM task_run", Long.class)).isEqualTo(tasks);
    }

    @Test
    void givenAFlowWithOneIntent_whenTrained_thenTheTaskFailsSayingWhy() {
        Map<String, Object> project = createProject(ADMIN_KEY, "One intent", "en-US");
        String flowId = id(created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", id(project), "name", "F")));
        created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents", Map.of("name", "Alone"));
        Map<String, Object> task = accepted("/v2.0/flows/" + flowId + "/intents/train", Map.of());
        assertThat(awaitEnd((String) task.get("_id"))).isEqualTo("error");
        assertThat(failReason((String) task.get("_id"))).contains("training needs at least two");
    }

    @Test
    void givenAProject_whenAllFlowsAreTrainedWithTheClientsOptionsAsBody_thenEachTrainableFlowIsTrained() {
        Trip trip = trip("Train all");
        created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", trip.projectId(), "name", "Empty"));
        Map<String, Object> task = accepted("/v2.0/projects/" + trip.projectId() + "/trainallflows",
                Map.of("timeout", 5000, "withCredentials", true));
        assertThat(task).containsEntry("type", "trainAllProjectFlows");
        awaitDone((String) task.get("_id"));
        assertThat(trainedEvents(trip.flowId())).hasSize(1);
    }
}
