package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * Snapshots pin each flow's last training per locale (model id and training-set hash): a restore whose intents are
 * the trained ones brings that training back through FlowIntentsTrainingRestored, so generateNluScores answers
 * with the pinned model and nothing is trained; a flow never trained adds nothing to the content.
 */
class TrainingSnapshotTest extends SnapshotWorkSupport {

    private static final Map<String, List<String>> INTENTS = Map.of(
            "Weather", List.of("what is the weather today", "will it rain today", "weather forecast for berlin"),
            "Hotel", List.of("book a hotel room", "reserve a hotel in paris", "a double room please"));

    private record Trip(String projectId, String localeId, String localeReference, String flowId, String flowReference) {
    }

    private Trip trip(String name) {
        Map<String, Object> project = createProject(ADMIN_KEY, name, "en-US");
        String projectId = id(project);
        String locale = (String) project.get("primaryLocaleReference");
        Map<String, Object> flow = created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", "Trips"));
        String flowId = id(flow);
        INTENTS.forEach((intent, sentences) -> {
            String intentId = id(created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents", Map.of("name", intent)));
            sentences.forEach(s -> created(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents/" + intentId
                    + "/sentences", Map.of("text", s, "localeId", locale)));
        });
        String reference = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'referenceId' FROM "
                + "domain_event_entry WHERE payload_type LIKE '%LocaleCreatedEvent' AND "
                + "convert_from(payload, 'UTF8')::jsonb ->> 'localeId' = ?", String.class, locale);
        return new Trip(projectId, locale, reference, flowId, (String) flow.get("referenceId"));
    }

    private String train(String flowId) {
        Map<String, Object> task = accepted("/v2.0/flows/" + flowId + "/intents/train", Map.of("mode", "quick"));
        awaitDone((String) task.get("_id"));
        return lastModel(flowId, "FlowIntentsTrainedEvent");
    }

    private String lastModel(String flowId, String event) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'modelId' FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND payload_type LIKE ? ORDER BY global_index DESC LIMIT 1",
                String.class, flowId, "%." + event).stream().findFirst().orElse(null);
    }

    private int trainings(String projectId) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type LIKE "
                + "'%FlowIntentsTrainedEvent' AND convert_from(payload, 'UTF8')::jsonb ->> 'projectId' = ?",
                Integer.class, projectId);
    }

    private WebTestClientAnswer scores(Trip trip, String projectId) {
        return new WebTestClientAnswer(send(HttpMethod.POST, "/v2.0/projects/" + projectId + "/nlu/scores",
                Map.of("flowReferenceId", trip.flowReference(), "localeReferenceId", trip.localeReference(),
                        "sentence", "will it rain in berlin")));
    }

    private record WebTestClientAnswer(org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec spec) {
        @SuppressWarnings("unchecked")
        String modelId() {
            return (String) spec.expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody()
                    .get("modelId");
        }
    }

    @Test
    void givenATrainedFlow_whenSnapshottedChangedRetrainedAndRestored_thenScoresComeFromThePinnedModelUntrained()
            throws Exception {
        // given: trained, snapshotted, then a sentence added and trained again
        Trip trip = trip("Pinned training");
        String pinned = train(trip.flowId());
        String snapshot = snapshot(trip.projectId());
        String weather = jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = ?",
                String.class, trip.flowId(), "Weather");
        created(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/" + weather + "/sentences",
                Map.of("text", "is it sunny", "localeId", trip.localeId()));
        String later = train(trip.flowId());
        assertThat(later).isNotEqualTo(pinned);
        assertThat(scores(trip, trip.projectId()).modelId()).isEqualTo(later);
        int trainingsBefore = trainings(trip.projectId());

        // when
        restore(snapshot, trip.projectId());

        // then the pinned model answers, no training ran, and the content is the snapshot's again (its pin too)
        assertThat(scores(trip, trip.projectId()).modelId()).isEqualTo(pinned);
        assertThat(trainings(trip.projectId())).isEqualTo(trainingsBefore);
        assertThat(lastModel(trip.flowId(), "FlowIntentsTrainingRestoredEvent")).isEqualTo(pinned);
        assertSameContent(snapshot(trip.projectId()), snapshot);

        // and a second restore of the same snapshot writes no second restored training
        restore(snapshot, trip.projectId());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? AND "
                + "payload_type LIKE '%FlowIntentsTrainingRestoredEvent'", Integer.class, trip.flowId())).isEqualTo(1);

    }

    @Test
    void givenAPinnedModelWhoseBytesAreGone_whenRestoredAndScored_thenThe409AskingToTrainAgain() throws Exception {
        // given: trained (never scored, so never loaded), snapshotted, retrained; the pinned model's row deleted
        Trip trip = trip("Pinned, bytes gone");
        String pinned = train(trip.flowId());
        String snapshot = snapshot(trip.projectId());
        created(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents", Map.of("name", "Goodbye"));
        String goodbye = jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = ?",
                String.class, trip.flowId(), "Goodbye");
        created(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/" + goodbye + "/sentences",
                Map.of("text", "bye for now", "localeId", trip.localeId()));
        train(trip.flowId());
        jdbc.update("DELETE FROM intent_model WHERE model_id = ?", pinned);

        // when
        restore(snapshot, trip.projectId());

        // then
        scores(trip, trip.projectId()).spec().expectStatus().isEqualTo(409).expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(String.class).value(body -> assertThat(body).contains("no longer stored", pinned));
    }

    @Test
    void givenASnapshotTakenBeforePins_whenRestored_thenItRestoresAsBeforeAndTheFlowKeepsItsTraining()
            throws Exception {
        // given a snapshot of a trained flow stored as snapshots were before they pinned trainings (no "trained")
        Trip trip = trip("Old snapshot");
        train(trip.flowId());
        String old = snapshot(trip.projectId());
        jdbc.update("UPDATE cmd_snapshot_content SET content = convert_to((convert_from(content, 'UTF8')::jsonb "
                + "#- '{flows,0,trained}')::text, 'UTF8') WHERE snapshot_id = ?", old);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> flows = (List<Map<String, Object>>) contentOf(old).get("flows");
        assertThat(flows).singleElement().satisfies(flow -> assertThat(flow).doesNotContainKey("trained"));
        String weather = jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = ?",
                String.class, trip.flowId(), "Weather");
        String added = id(created(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/" + weather
                + "/sentences", Map.of("text", "is it sunny", "localeId", trip.localeId())));
        String later = train(trip.flowId());

        // when
        restore(old, trip.projectId());

        // then the sentence is gone as before, nothing is pinned, and the flow's last model is still the later one
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? AND "
                + "payload_type LIKE '%SentenceDeletedEvent' AND convert_from(payload, 'UTF8')::jsonb ->> 'sentenceId' = ?",
                Integer.class, weather, added)).isEqualTo(1);
        assertThat(lastModel(trip.flowId(), "FlowIntentsTrainingRestoredEvent")).isNull();
        assertThat(scores(trip, trip.projectId()).modelId()).isEqualTo(later);
    }

    @Test
    void givenASnapshotOfATrainedFlow_whenRestoredIntoAnotherProject_thenNoTrainingIsPinnedThere() throws Exception {
        // given: the pin names intent ids the other project's new intents do not have
        Trip trip = trip("Pinned source");
        train(trip.flowId());
        String snapshot = snapshot(trip.projectId());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> flows = (List<Map<String, Object>>) contentOf(snapshot).get("flows");
        assertThat(flows).singleElement().satisfies(flow -> assertThat(flow).containsKey("trained"));
        String target = id(createProject(ADMIN_KEY, "Pinned target", "en-US"));

        // when
        restore(snapshot, target);

        // then the copy is untrained: the 409 asking to train it
        scores(trip, target).spec().expectStatus().isEqualTo(409);
    }

    @Test
    void givenAProjectNeverTrained_whenSnapshotted_thenItsFlowsCarryNoTrainedField() throws Exception {
        // given
        Trip trip = trip("Never trained");
        // when
        String snapshot = snapshot(trip.projectId());
        // then
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> flows = (List<Map<String, Object>>) contentOf(snapshot).get("flows");
        assertThat(flows).isNotEmpty().allSatisfy(flow -> assertThat(flow).doesNotContainKey("trained"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenTwoTrainings_whenScoredAgainstTheEarlierModelId_thenThatModelAnswersWithTheFeaturesThatDecided() {
        // given a flow trained, changed and trained again
        Trip trip = trip("Earlier model");
        String earlier = train(trip.flowId());
        String weather = jdbc.queryForObject("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND name = ?",
                String.class, trip.flowId(), "Weather");
        created(HttpMethod.POST, "/v2.0/flows/" + trip.flowId() + "/intents/" + weather + "/sentences",
                Map.of("text", "is it sunny", "localeId", trip.localeId()));
        String later = train(trip.flowId());
        String path = "/v2.0/projects/" + trip.projectId() + "/nlu/scores";
        Map<String, Object> ask = new java.util.HashMap<>(Map.of("flowReferenceId", trip.flowReference(),
                "localeReferenceId", trip.localeReference(), "sentence", "will it rain in berlin"));

        // when
        ask.put("modelId", earlier);
        Map<String, Object> answer = send(HttpMethod.POST, path, ask).expectStatus().isOk().expectBody(Map.class)
                .returnResult().getResponseBody();

        // then the earlier model answers, Weather first, decided by its words
        assertThat(answer.get("modelId")).isEqualTo(earlier).isNotEqualTo(later);
        List<Map<String, Object>> scores = (List<Map<String, Object>>) answer.get("scores");
        assertThat(scores.get(0)).containsEntry("id", weather);
        List<Map<String, Object>> features = (List<Map<String, Object>>) scores.get(0).get("features");
        assertThat(features).isNotEmpty().hasSizeLessThanOrEqualTo(5).extracting(f -> f.get("feature"))
                .isSubsetOf("w:will", "w:it", "w:rain", "w:in", "w:berlin", "b:will it", "b:it rain", "b:rain in",
                        "b:in berlin");
        assertThat(scores).allSatisfy(score -> assertThat(score).containsKey("features"));

        // and an id no training of this flow and locale recorded is a 404: unknown or another flow's (a model id is
        // checked against the flow's own trainings, so another organisation's is one of another flow: the same answer)
        Trip other = trip("Earlier model, another flow");
        String otherFlowsModel = train(other.flowId());
        for (String wrong : List.of("0".repeat(64), otherFlowsModel)) {
            ask.put("modelId", wrong);
            send(HttpMethod.POST, path, ask).expectStatus().isNotFound().expectHeader()
                    .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody(String.class).value(body -> assertThat(body).contains("modelId"));
        }
        // and another organisation's user asking with a model id is answered as for any project it cannot see
        http.post().uri("/v2.0/projects/" + other.projectId() + "/nlu/scores")
                .header("X-API-Key", otherOrganisationKey("earlier@other.example"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("flowReferenceId", other.flowReference(),
                        "localeReferenceId", other.localeReference(), "sentence", "rain", "modelId", otherFlowsModel))
                .exchange().expectStatus().isNotFound();
        // and a modelId that is not a string is a 400 naming it
        ask.put("modelId", 5);
        send(HttpMethod.POST, path, ask).expectStatus().isBadRequest()
                .expectBody(String.class).value(body -> assertThat(body).contains("modelId"));
    }
}
