package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.query.consistency.ProjectionProgress;
import ai.convo.query.rebuild.Rebuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * A rebuild of the event log and the audit trail equals what the live processor wrote event by event, for requests
 * of many events of several organisations interleaved, past the 100 resources alsoChanged lists, with a request
 * inside one rebuild batch and split across batches.
 */
class EventLogRebuildTest extends QueryTestBase {

    @Autowired
    Rebuilder rebuilder;

    @Autowired
    ProjectionProgress progress;

    @Test
    void aRebuiltEventLogEqualsTheLiveOneWhateverItsRequestsAndBatches() {
        // given: the event log as the events say it (other tests change rows behind the log's back)
        Map<String, Object> repaired = awaitRebuild(requestRebuild(List.of("eventlog"), false));
        assertThat(repaired.get("status")).as("%s", repaired.get("fail_reason")).isEqualTo("done");
        // and: three organisations whose requests interleave in the log: one of 130 locales (past the 100 that
        // alsoChanged lists), requests that change one resource twice (payload merged) and others, a request whose
        // first event names no action and a later one does (a snapshot after its task), events of no actor (progress)
        Caller a = newOrganisation();
        Caller b = newOrganisation();
        Caller c = newOrganisation();
        Project pa = project(a, "A", 1000);
        Project pb = project(b, "B", 1000);
        Project pc = project(c, "C", 1000);
        String progressed = Ids.newId();
        append(progressed, new TaskCreatedEvent(progressed, pc.id(), c.organisationId(), "import", Map.of(),
                c.userId(), "ADMIN", 1500L));
        String large = "request-" + Ids.newId();
        for (int i = 0; i < 130; i++) {
            append(pa.id(), new LocaleCreatedEvent(pa.id(), a.organisationId(), Ids.newId(),
                    UUID.randomUUID().toString(), "Locale " + i, "de-DE", false, null, a.userId(), 2000L + i),
                    MetaData.with("traceId", large));
            if (i % 10 == 0) {
                String twice = "request-" + Ids.newId();
                String locale = Ids.newId();
                append(pb.id(), new LocaleCreatedEvent(pb.id(), b.organisationId(), locale,
                        UUID.randomUUID().toString(), "Twice " + i, "fr-FR", false, null, b.userId(), 3000L + i),
                        MetaData.with("traceId", twice));
                append(pb.id(), new LocaleUpdatedEvent(pb.id(), b.organisationId(), locale, List.of("name"),
                        "Twice renamed \t\\ \n" + i, "fr-FR", false, null, b.userId(), 3001L + i),
                        MetaData.with("traceId", twice));
                append(pb.id(), new LocaleCreatedEvent(pb.id(), b.organisationId(), Ids.newId(),
                        UUID.randomUUID().toString(), "Other " + i, "it-IT", false, null, b.userId(), 3002L + i),
                        MetaData.with("traceId", twice));
                append(progressed, new TaskProgressedEvent(progressed, pc.id(), c.organisationId(), i, 130, 4000L + i));
            }
            if (i % 40 == 0) {
                String snapshot = "request-" + Ids.newId();
                String task = Ids.newId();
                append(task, new TaskCreatedEvent(task, pc.id(), c.organisationId(), "createSnapshot", Map.of(),
                        c.userId(), "ADMIN", 5000L + i), MetaData.with("traceId", snapshot));
                String snapshotId = Ids.newId();
                append(snapshotId, new SnapshotRequestedEvent(snapshotId, pc.id(), c.organisationId(), task,
                        "Snapshot " + i, "", c.userId(), 5001L + i), MetaData.with("traceId", snapshot));
            }
        }
        long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        assertThat(progress.await(position, System.nanoTime() + Duration.ofMinutes(1).toNanos()).block())
                .as("the live processors applied the events").isTrue();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_event_overflow WHERE correlation_id = ?",
                Long.class, large)).as("the large request went past alsoChanged's 100").isEqualTo(29L);

        // when: the event log is rebuilt in batches larger than the large request,
        int batchSize = (int) ReflectionTestUtils.getField(rebuilder, "batchSize");
        Map<String, Object> oneBatch;
        try {
            ReflectionTestUtils.setField(rebuilder, "batchSize", 1000);
            oneBatch = awaitRebuild(requestRebuild(List.of("eventlog"), true));
        } finally {
            ReflectionTestUtils.setField(rebuilder, "batchSize", batchSize);
        }
        // and in the usual small ones (requests split between batches)
        Map<String, Object> smallBatches = awaitRebuild(requestRebuild(List.of("eventlog"), true));

        // then: both switched identical tables
        for (Map<String, Object> row : List.of(oneBatch, smallBatches)) {
            assertThat(row.get("status")).as("%s %s", row.get("fail_reason"), row.get("digests")).isEqualTo("done");
            assertThat(row.get("identical")).isEqualTo(true);
        }
        assertThat(jdbc.queryForObject("SELECT jsonb_array_length(payload -> 'alsoChanged') FROM audit_event "
                + "WHERE correlation_id = ?", Integer.class, large)).isEqualTo(100);
    }
}
