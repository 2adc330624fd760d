package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.query.consistency.ProjectionProgress;
import ai.convo.query.rebuild.LiveCatchUp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * Projections far behind the log catch up in batches from one reader (LiveCatchUp), into the live tables: the rows a
 * rebuild from the log gives, every version in the row history at its own event's index, tokens past the events, and
 * the processors running again.
 */
class LiveCatchUpTest extends QueryTestBase {

    private static final List<String> PAUSED = List.of("tokens", "eventlog");

    @Autowired
    LiveCatchUp catchUp;

    @Autowired
    EventProcessingConfiguration processing;

    @Autowired
    ProjectionProgress progress;

    @Test
    void projectionsFarBehindCatchUpWithTheRowsAndHistoryTheirProcessorsWouldHaveWritten() {
        // given: the tokens and event-log processors stopped while 1,500 events of 30 tokens are appended, in requests
        // of three events each (one audit event per request)
        Caller a = newOrganisation();
        Project project = project(a, "Catch-up", 1000);
        assertThat(progress.await(project.position(), System.nanoTime() + Duration.ofMinutes(1).toNanos()).block())
                .isTrue();
        long auditBefore = audits(a);
        List<StreamingEventProcessor> processors = PAUSED.stream()
                .map(name -> processing.eventProcessor(name, StreamingEventProcessor.class).orElseThrow()).toList();
        processors.forEach(StreamingEventProcessor::shutDown);
        Map<String, List<Long>> versions = new LinkedHashMap<>();
        List<String> tokens = new ArrayList<>();
        for (int t = 0; t < 30; t++) {
            String token = Ids.newId();
            tokens.add(token);
            versions.put(token, new ArrayList<>(List.of(append(token, new TokenCreatedEvent(token, project.id(),
                    a.organisationId(), UUID.randomUUID().toString(), "Token " + t, "custom", "v0", a.userId(),
                    2000L + t), MetaData.with("traceId", "create-" + token)))));
        }
        for (int i = 0; i < 1470; i++) {
            String token = tokens.get(i % tokens.size());
            versions.get(token).add(append(token, new TokenUpdatedEvent(token, project.id(), a.organisationId(),
                    List.of("script"), "Token " + token, "custom", "v" + i, a.userId(), 3000L + i),
                    MetaData.with("traceId", "request-" + (i / 3))));
        }
        long last = versions.values().stream().flatMap(List::stream).mapToLong(Long::longValue).max().orElseThrow();

        // when: the catch-up looks, with a threshold these 1,500 events pass, going on to the head
        long threshold = (long) ReflectionTestUtils.getField(catchUp, "threshold");
        long within = (long) ReflectionTestUtils.getField(catchUp, "within");
        long applied;
        try {
            ReflectionTestUtils.setField(catchUp, "threshold", 100L);
            ReflectionTestUtils.setField(catchUp, "within", 0L);
            applied = catchUp.check();
        } finally {
            ReflectionTestUtils.setField(catchUp, "threshold", threshold);
            ReflectionTestUtils.setField(catchUp, "within", within);
        }

        // then: it applied them (their processors were stopped), and the processors run again
        assertThat(applied).isGreaterThanOrEqualTo(1500);
        assertThat(processors).allMatch(StreamingEventProcessor::isRunning);
        assertThat(progress.await(last, System.nanoTime() + Duration.ofMinutes(1).toNanos()).block()).isTrue();
        // and: every version of every token in the row history at its own event's index
        versions.forEach((token, indexes) -> assertThat(jdbc.queryForList("SELECT global_index FROM row_history "
                + "WHERE table_name = 'token_view' AND row_id = ? ORDER BY global_index", Long.class, token))
                .as(token).isEqualTo(indexes));
        assertThat(jdbc.queryForObject("SELECT script FROM token_view WHERE id = ?", String.class, tokens.get(0)))
                .isEqualTo("v1440");
        assertThat(audits(a)).as("one audit event per request").isEqualTo(auditBefore + 30 + 490);
        // and: a rebuild of both from the log switches tables identical to what the catch-up wrote
        Map<String, Object> rebuilt = awaitRebuild(requestRebuild(PAUSED, true));
        assertThat(rebuilt.get("status")).as("%s %s", rebuilt.get("fail_reason"), rebuilt.get("digests"))
                .isEqualTo("done");
        assertThat(rebuilt.get("identical")).isEqualTo(true);
    }

    private long audits(Caller caller) {
        return jdbc.queryForObject("SELECT count(*) FROM audit_event WHERE organisation_id = ?", Long.class,
                caller.organisationId());
    }
}
