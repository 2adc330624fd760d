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
            // each sentence shares a word with another of its intent, so a held-out fold still knows it: with six
            // sentences of words seen once, which intent an out-of-fold sentence falls to depends on the ids' order
            "Weather", List.of("what is the weather today", "will it rain today", "weather forecast for berlin",
                    "is it sunny in berlin today", "the weather forecast for tomorrow", "is rain in the forecast"),
            "Hotel", List.of("book a hotel room", "I need a room for two nights", "reserve a hotel in paris",
                    "find me a place to stay", "hotel near the station", "a double room please"));

    private record Trip(String projectId, String localeId, String flowId, String flowReference) {
    }

    private Trip trip(String name) {
        return trip(name, INTENTS);
    }

    private Trip trip(String name, Map<String, List<String>> intents) {
        Map<String, Object> project = createProject(ADMIN_KEY, name, "en-US");
        String projectId = id(project);
        String locale = (String) project.get("primaryLocaleReference");
        Map<String, Object> flow = created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", "Trips"));
        String flowId = id(flow);
        intents.forEach((intent, sentences) -> {
            String intentId = id(created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents", Map.of("name", intent)));
            sentences.forEach(s -> created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents/" + intentId
                    + "/sentences", Map.of("text", s, "localeId", locale)));
        });
        return new Trip(projectId, locale, flowId, (String) flow.get("referenceId"));
    }

    /** The locale's referenceId, as its creation event recorded it. */
    private String localeReference(String localeId) {
        return jdbc.queryForObject("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'referenceId' FROM domain_event_entry "
                + "WHERE payload_type LIKE '%LocaleCreatedEvent' AND convert_from(payload, 'UTF8')::jsonb ->> 'localeId' = ?",
                String.class, localeId);
    }

    private String intentId(String flowId, String name) {
        return jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = ?",
                String.class, flowId, name);
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

    @Test
    @SuppressWarnings("unchecked")
    void givenAPlantedOverlap_whenTrainedInFull_thenTheCrossValidatedReportNamesIt() {
        // given: Lodging says what Hotel says, in other words only now and then
        Map<String, List<String>> intents = new java.util.LinkedHashMap<>(INTENTS);
        intents.put("Lodging", List.of("book a hotel room please", "I need a hotel room for two nights",
                "reserve a hotel room in paris", "find me a hotel place to stay", "a hotel near the station",
                "a double hotel room please"));
        Trip trip = trip("Planted overlap", intents);

        // when
        train(trip.flowId(), Map.of("mode", "full"));

        // then the stored report (what the query side serves) gives Hotel and Lodging a strong overlap, each naming
        // the other, and Weather (which shares nothing with them) names neither
        String modelId = (String) trainedEvents(trip.flowId()).get(0).get("model");
        Map<String, Object> report = tools.jackson.databind.json.JsonMapper.builder().build().readValue(jdbc
                .queryForObject("SELECT report FROM intent_model WHERE model_id = ?", String.class, modelId), Map.class);
        Map<String, Object> reports = (Map<String, Object>) report.get("intents");
        String hotel = intentId(trip.flowId(), "Hotel");
        String lodging = intentId(trip.flowId(), "Lodging");
        assertThat((List<Map<String, Object>>) ((Map<String, Object>) reports.get(hotel)).get("findings"))
                .anySatisfy(f -> {
                    assertThat(f).containsEntry("type", "strongOverlap");
                    assertThat((List<String>) f.get("intentIds")).contains(lodging);
                    assertThat((List<String>) f.get("intentNames")).contains("Lodging");
                });
        assertThat((List<Map<String, Object>>) ((Map<String, Object>) reports.get(lodging)).get("findings"))
                .anySatisfy(f -> {
                    assertThat(f).containsEntry("type", "strongOverlap");
                    assertThat((List<String>) f.get("intentIds")).contains(hotel);
                });
        assertThat((List<Map<String, Object>>) ((Map<String, Object>) reports.get(intentId(trip.flowId(), "Weather")))
                .get("findings")).noneSatisfy(f -> assertThat((List<String>) f.getOrDefault("intentIds", List.of()))
                        .containsAnyOf(hotel, lodging));
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenATrainedFlow_whenNluScoresAreAsked_thenTheIntentsRankedByTheLastModel() {
        // given
        Trip trip = trip("Scores");
        String locale = localeReference(trip.localeId());
        String path = "/v2.0/projects/" + trip.projectId() + "/nlu/scores";
        Map<String, Object> ask = Map.of("flowReferenceId", trip.flowReference(), "localeReferenceId", locale,
                "sentence", "will it rain in berlin tomorrow");
        // an untrained flow: 409 saying how to train it
        send(HttpMethod.POST, path, ask).expectStatus().isEqualTo(409)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(String.class).value(body -> assertThat(body).contains("/intents/train"));
        train(trip.flowId(), Map.of("mode", "quick"));

        // when
        Map<String, Object> answer = send(HttpMethod.POST, path, ask).expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();

        // then every intent, ranked, Weather first, in the vendor's item shape, from the recorded model
        List<Map<String, Object>> scores = (List<Map<String, Object>>) answer.get("scores");
        assertThat(scores).hasSize(3);
        assertThat(scores.get(0)).containsEntry("id", intentId(trip.flowId(), "Weather"))
                .containsEntry("name", "Weather").containsEntry("negated", false)
                .containsEntry("flow", trip.flowReference()).containsKeys("confirmationSentences", "disambiguationSentence");
        assertThat(((Number) scores.get(0).get("score")).doubleValue())
                .isGreaterThan(((Number) scores.get(1).get("score")).doubleValue());
        assertThat(scores.stream().mapToDouble(s -> ((Number) s.get("score")).doubleValue()).sum())
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(answer.get("modelId")).isEqualTo(trainedEvents(trip.flowId()).get(0).get("model"));

        // and wrong input is a 400 naming the field; another organisation's project a 404
        for (Map<String, Object> wrong : List.<Map<String, Object>>of(
                Map.of("flowReferenceId", trip.flowReference(), "localeReferenceId", locale),
                Map.of("flowReferenceId", "no-such-flow", "localeReferenceId", locale, "sentence", "x"),
                Map.of("flowReferenceId", trip.flowReference(), "localeReferenceId", "no-such-locale", "sentence", "x"),
                Map.of("flowReferenceId", trip.flowReference(), "localeReferenceId", locale, "sentence", "x",
                        "extra", 1))) {
            send(HttpMethod.POST, path, wrong).expectStatus().isBadRequest()
                    .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        }
        http.post().uri(path).header("X-API-Key", otherOrganisationKey("scorer@other.example"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(ask).exchange()
                .expectStatus().isNotFound();
    }
}
