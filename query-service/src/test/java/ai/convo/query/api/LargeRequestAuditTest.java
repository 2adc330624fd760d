package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.query.consistency.ProjectionProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;

/**
 * One request of many events (an intents import) is one audit event, projected at the speed of as many small
 * requests: its payload.alsoChanged lists the first 100 other resources and counts the rest, instead of one row
 * rewritten, ever larger, per event (which made the eventlog projection quadratic in the request's size).
 */
class LargeRequestAuditTest extends QueryTestBase {

    @Autowired
    private ProjectionProgress progress;

    private static final int EVENTS = 3_000;

    @Test
    void oneRequestOfThousandsOfEventsIsProjectedAsFastAsManySmallOnesAndListsAHundred() {
        // given two organisations with a project each
        Caller large = newOrganisation();
        Caller small = newOrganisation();
        Project largeProject = project(large, "Large", 1000);
        Project smallProject = project(small, "Small", 1000);

        // when one organisation appends EVENTS events in one request and the other as many in requests of one event
        double smallRate = eventsPerSecond(small, smallProject, false);
        double largeRate = eventsPerSecond(large, largeProject, true);
        System.out.printf("eventlog projection: one request of %d events %.0f events/s; %d requests of one event "
                + "%.0f events/s%n", EVENTS, largeRate, EVENTS, smallRate);

        // then the one request goes no slower than half the speed of the small ones
        assertThat(largeRate).isGreaterThan(smallRate / 2);
        // and it is one audit event that lists 100 resources and counts the rest
        long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        // the read below reflects every projection, not just the event log this test timed: 6,000 new locales may
        // keep the other projections (and those of earlier tests' tasks) busy past the read's 5 s wait
        assertThat(progress.await(position, System.nanoTime() + Duration.ofMinutes(2).toNanos()).block())
                .as("every projection reached the appended events within 2 minutes").isTrue();
        Map<String, Object> page = http.get().uri("/v2.0/auditevents?limit=100&type=create&resourceType=locale")
                .header("X-API-Key", large.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk()
                .expectBody(new ParameterizedTypeReference<Map<String, Object>>() { }).returnResult().getResponseBody();
        List<Map<String, Object>> items = ListPages.items(page);
        assertThat(items).hasSize(2); // the project's first locale, then the request
        @SuppressWarnings("unchecked")
        Map<String, Object> payload = (Map<String, Object>) items.get(1).get("payload");
        assertThat((List<?>) payload.get("alsoChanged")).hasSize(100);
        assertThat(payload.get("alsoChangedOmitted")).isEqualTo(EVENTS - 1 - 100);
        // a small request's audit event has no count
        assertThat(ListPages.items(http.get().uri("/v2.0/auditevents?limit=1")
                .header("X-API-Key", small.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk()
                .expectBody(new ParameterizedTypeReference<Map<String, Object>>() { }).returnResult().getResponseBody())
                .get(0).get("payload").toString()).doesNotContain("alsoChanged");
    }

    /** Appends EVENTS new locales of the project at once and answers how fast the event log took them in. */
    private double eventsPerSecond(Caller caller, Project project, boolean oneRequest) {
        String trace = "request-" + Ids.newId();
        List<EventMessage<?>> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            String localeId = Ids.newId();
            MetaData meta = MetaData.with("traceId", oneRequest ? trace : "request-" + Ids.newId());
            events.add(new GenericDomainEventMessage<>("LocaleAggregate", localeId, 0, new LocaleCreatedEvent(
                    project.id(), caller.organisationId(), localeId, UUID.randomUUID().toString(), "Locale " + i,
                    "de-DE", false, null, caller.userId(), 2000), meta));
        }
        long before = logged(caller);
        long start = System.nanoTime();
        eventStore.publish(events);
        long deadline = start + Duration.ofMinutes(5).toNanos();
        while (logged(caller) < before + EVENTS) {
            assertThat(System.nanoTime()).as("the event log took in the events within 5 minutes").isLessThan(deadline);
            try {
                Thread.sleep(10); // the poll's interval, not a wait for anything in particular
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return EVENTS / ((System.nanoTime() - start) / 1e9);
    }

    private long logged(Caller caller) {
        return jdbc.queryForObject("SELECT count(*) FROM event_log WHERE organisation_id = ?", Long.class,
                caller.organisationId());
    }
}
