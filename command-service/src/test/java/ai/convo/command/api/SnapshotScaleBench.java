package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.common.Ids;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Wall times of createSnapshot and restoreSnapshot on a project with one flow of 10,000 intents and 100,000
 * sentences (seeded as events through Axon's event store, so the write-side lookups are filled as by the routes).
 * Not part of ./mvnw verify (the name is no *Test, and it needs -Dsnapshot.bench=true): deploy/bench/snapshot-scale.sh.
 */
@EnabledIfSystemProperty(named = "snapshot.bench", matches = "true")
class SnapshotScaleBench extends SnapshotWorkSupport {

    @Autowired
    EventStore eventStore;

    @Test
    void createAndRestoreAt10kIntentsAnd100kSentences() throws Exception {
        int intents = Integer.getInteger("snapshot.bench.intents", 10_000);
        int perIntent = Integer.getInteger("snapshot.bench.sentences", 10);
        int runs = Integer.getInteger("snapshot.bench.runs", 3);
        Map<String, Object> project = createProject(ADMIN_KEY, "Scale " + System.nanoTime(), "en-US");
        String projectId = id(project);
        String localeId = (String) project.get("primaryLocaleReference");
        String org = admin().organisationId();
        String user = admin().userId();
        long seedStart = System.nanoTime();
        String flowId = Ids.newId();
        List<DomainEventMessage<?>> batch = new ArrayList<>();
        batch.add(new GenericDomainEventMessage<>("FlowAggregate", flowId, 0, new FlowCreatedEvent(flowId, projectId,
                org, UUID.randomUUID().toString(), "Big flow", "", user, 1L)));
        for (int i = 0; i < intents; i++) {
            String intentId = Ids.newId();
            batch.add(new GenericDomainEventMessage<>("IntentAggregate", intentId, 0, new IntentCreatedEvent(intentId,
                    flowId, projectId, org, UUID.randomUUID().toString(), "Intent " + i, "", List.of(), false, false,
                    null, null, List.of(), null, List.of(), Map.of(), ChildFeatures.NONE, null, user, 1L)));
            for (int s = 0; s < perIntent; s++) {
                batch.add(new GenericDomainEventMessage<>("IntentAggregate", intentId, s + 1, new SentenceCreatedEvent(
                        Ids.newId(), intentId, flowId, projectId, org, localeId, "sentence " + s + " of intent " + i,
                        user, 1L)));
            }
            if (batch.size() >= 5_000) {
                eventStore.publish(batch);
                batch = new ArrayList<>();
            }
        }
        eventStore.publish(batch);
        System.out.printf("BENCH seeded %d intents, %d sentences in %.1f s%n", intents, intents * perIntent,
                (System.nanoTime() - seedStart) / 1e9);

        List<Double> creates = new ArrayList<>();
        List<Double> restores = new ArrayList<>();
        String first = null;
        for (int run = 0; run < runs; run++) {
            long start = System.nanoTime();
            String snapshotId = snapshot(projectId);
            creates.add((System.nanoTime() - start) / 1e9);
            first = first == null ? snapshotId : first;
            start = System.nanoTime();
            restore(first, projectId);
            restores.add((System.nanoTime() - start) / 1e9);
            System.out.printf("BENCH run %d: createSnapshot %.1f s, restoreSnapshot %.1f s%n", run + 1,
                    creates.get(run), restores.get(run));
            assertThat(hashOf(snapshotId)).isEqualTo(hashOf(first));
        }
        System.out.printf("BENCH median of %d: createSnapshot %.1f s, restoreSnapshot %.1f s%n", runs,
                median(creates), median(restores));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
