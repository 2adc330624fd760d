package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleCreatedEvent;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.WrappedToken;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * 12,000 global indexes no event fills (a large transaction that rolled back after taking them, or one that other
 * writers' commits overtook) followed by more events: the processors keep going, their tokens hold at most
 * app.events.max-gap-offset gaps (each buffered event's token copies them all; at Axon's 10,000 this ran the services
 * out of memory), and the organisation reads its writes.
 */
class ManyGapsTest extends QueryTestBase {

    private static final int HOLE = 12_000;
    private static final int AFTER = 2_500;
    private static final int MAX_GAP_OFFSET = 2_000;

    @Autowired
    EventProcessingConfiguration processing;

    @Test
    void twelveThousandEmptyIndexesCostBoundedGapsAndTheProcessorsKeepGoing() throws Exception {
        // given an organisation and its project, projected
        Caller caller = newOrganisation();
        Project project = project(caller, "Gaps", 1000);
        System.gc();
        long heapBefore = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();

        // when 12,000 indexes are taken and never filled, and 2,500 events follow in requests of one event
        jdbc.queryForObject("SELECT setval(pg_get_serial_sequence('domain_event_entry', 'global_index'), "
                + "nextval(pg_get_serial_sequence('domain_event_entry', 'global_index')) + ?)", Long.class, HOLE);
        AtomicLong maxGaps = new AtomicLong();
        AtomicLong peakHeap = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                maxGaps.accumulateAndGet(gapsNow(), Math::max);
                peakHeap.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        long start = System.nanoTime();
        for (int i = 0; i < AFTER; i += 100) {
            List<EventMessage<?>> events = new ArrayList<>();
            for (int k = 0; k < 100; k++) {
                String localeId = Ids.newId();
                events.add(new GenericDomainEventMessage<>("LocaleAggregate", localeId, 0, new LocaleCreatedEvent(
                        project.id(), caller.organisationId(), localeId, UUID.randomUUID().toString(),
                        "Locale " + (i + k), "de-DE", false, null, caller.userId(), 2000)));
            }
            // one event per transaction, as separate requests append them
            for (EventMessage<?> event : events) {
                eventStore.publish(event);
            }
        }
        long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);

        // then the processors get past all of it: this test is about memory and liveness (a processor that stopped or
        // ran out of memory never gets there); their speed on this shared machine is not its subject
        long until = System.nanoTime() + java.time.Duration.ofSeconds(120).toNanos();
        while (lowestPosition() < position && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(lowestPosition()).as("every processor's every segment").isGreaterThanOrEqualTo(position);
        // and the organisation reads all its locales after its writes
        http.get().uri("/v2.0/locales?projectId=" + project.id() + "&limit=1")
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(AFTER + 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        sampler.interrupt();
        sampler.join();
        System.out.printf("many gaps: %d empty indexes, %d events after them projected in %.1f s; largest gap set of a "
                        + "processor's token %d; peak heap %d MB above the start%n", HOLE, AFTER, seconds, maxGaps.get(),
                (peakHeap.get() - heapBefore) >> 20);
        // and no token held more gaps than the bound
        assertThat(maxGaps.get()).isPositive().isLessThanOrEqualTo(MAX_GAP_OFFSET);
    }

    /** The lowest position any segment of any processor has handled. */
    private long lowestPosition() {
        long lowest = Long.MAX_VALUE;
        for (var processor : processing.eventProcessors().values()) {
            if (processor instanceof StreamingEventProcessor streaming) {
                for (var status : streaming.processingStatus().values()) {
                    var token = WrappedToken.unwrapLowerBound(status.getTrackingToken());
                    lowest = Math.min(lowest, token == null ? -1 : token.position().orElse(-1));
                }
            }
        }
        return lowest;
    }

    /** The most gaps any segment of any processor's token holds now. */
    private long gapsNow() {
        long most = 0;
        for (var processor : processing.eventProcessors().values()) {
            if (processor instanceof StreamingEventProcessor streaming) {
                for (var status : streaming.processingStatus().values()) {
                    if (WrappedToken.unwrapLowerBound(status.getTrackingToken()) instanceof GapAwareTrackingToken token) {
                        most = Math.max(most, token.getGaps().size());
                    }
                }
            }
        }
        return most;
    }
}
