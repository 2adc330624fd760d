package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.List;
import java.util.Map;
import ai.convo.query.consistency.SegmentProgressPublisher;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A principal reads its own writes at once, without any header: every read waits for the newest write recorded
 * under its user id, and answers 503 rather than stale data when the projections do not get there in time. Other
 * principals are not held up by it.
 */
class ReadYourWritesTest extends IntentQuerySupport {

    @Autowired
    EventProcessingConfiguration processing;
    @Autowired
    SegmentProgressPublisher progress;

    @SuppressWarnings("unchecked")
    private Map<String, Object> read(String uri, Caller caller) {
        return http.get().uri(uri).header("X-API-Key", caller.apiKey())
                .exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @Test
    void aWriterReadsItsNewProjectAndLocaleAtOnceWithoutAHeader() {
        Caller writer = newOrganisation();
        Project project = as(writer, () -> project(writer, "Mine at once", 1000));
        String second = Ids.newId();
        as(writer, () -> locale(writer, project.id(), second, "Second", "de-DE", null));

        assertThat(read("/v2.0/projects/" + project.id(), writer).get("name")).isEqualTo("Mine at once");
        assertThat(read("/v2.0/locales/" + second, writer).get("name")).isEqualTo("Second");
        assertThat(read("/v2.0/locales?projectId=" + project.id(), writer).get("total")).isEqualTo(2);
    }

    @Test
    void whileProjectionsStandStillTheWriterGets503AndOthersAreNotHeldUp() {
        Caller writer = newOrganisation();
        Caller colleague = colleague(writer);
        Project project = as(writer, () -> project(writer, "Standing still", 1000));
        read("/v2.0/locales?projectId=" + project.id(), writer);
        String uri = "/v2.0/locales?projectId=" + project.id();

        List<EventProcessor> processors = List.copyOf(processing.eventProcessors().values());
        processors.forEach(processor -> processor.shutdownAsync().join());
        try {
            as(writer, () -> locale(writer, project.id(), Ids.newId(), "Unseen yet", "fr-FR", null));

            // given the write is not projected, a colleague reads the state before it, without waiting for it
            assertThat(read(uri, colleague).get("total")).isEqualTo(1);
            // and the writer is never shown that stale state
            Map<?, ?> problem = http.get().uri(uri).header("X-API-Key", writer.apiKey())
                    .exchange()
                    .expectStatus().isEqualTo(503)
                    .expectHeader().valueEquals("Retry-After", "1")
                    .expectBody(Map.class).returnResult().getResponseBody();
            assertThat(problem.get("code")).isEqualTo("503");
            assertThat((String) problem.get("detail")).contains("catching up");
        } finally {
            processors.forEach(EventProcessor::start);
        }

        assertThat(read(uri, writer).get("total")).isEqualTo(2);
    }

    @Test
    void feedbackReportsReflectTheWritersNewSentencesAtOnce() {
        Caller writer = newOrganisation();
        Project project = as(writer, () -> project(writer, "Feedback at once", 1000));
        String flowId = as(writer, () -> newFlow(writer, project.id(), 1000));
        String greet = Ids.newId();
        String bye = Ids.newId();
        as(writer, () -> {
            intent(writer, project.id(), flowId, greet, "greet", null, 1000);
            return intent(writer, project.id(), flowId, bye, "bye", null, 1001);
        });
        as(writer, () -> sentences(writer, project.id(), flowId, greet, project.primaryLocaleId(), 6));

        List<Map<String, Object>> items = items(read("/v2.0/flows/" + flowId
                + "/intents?includeFeedbackReport=true&preferredLocaleId=" + project.primaryLocaleId(), writer));

        assertThat(items).hasSize(2).allSatisfy(item -> assertThat(item.get("feedbackReport")).isNotNull());
        Map<String, Object> greetItem = items.stream().filter(item -> greet.equals(item.get("_id"))).findFirst().orElseThrow();
        assertThat(greetItem.get("sentenceCount")).isEqualTo(6);
    }

    @Test
    void everySegmentThisReplicaHoldsIsPublishedForReplicasThatDoNot() throws Exception {
        Caller writer = newOrganisation();
        Project project = as(writer, () -> project(writer, "Published", 1000));
        read("/v2.0/projects/" + project.id(), writer);

        progress.publish();

        List<Map<String, Object>> rows = jdbc.queryForList("SELECT t.processor_name, t.segment, p.idx FROM token_entry t "
                + "LEFT JOIN segment_progress p USING (processor_name, segment)");
        assertThat(rows).isNotEmpty().allSatisfy(row -> assertThat((Long) row.get("idx"))
                .as(row.get("processor_name") + "/" + row.get("segment")).isGreaterThanOrEqualTo(project.position()));
    }
}
