package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.query.function.FunctionProjection;
import ai.convo.testing.RawEvents;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;

/**
 * Issue 37: an event a projection cannot apply (a NUL in a string stored before the input boundary refused it) parks
 * its sequence; every other organisation reads and writes as before, the organisation whose write is parked is told
 * so (409, with the trace id), the management route lists it, and a retry after the fix applies it.
 */
class PoisonedEventTest extends QueryTestBase {

    private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() { };

    @Autowired
    MeterRegistry meters;

    @Test
    @SuppressWarnings("unchecked")
    void aPoisonedEventParksOneSequenceWhileEveryOtherOrganisationGoesOn() throws Exception {
        // given: organisation A's function, then an update of it whose name holds a NUL, written straight to the store
        Caller a = newOrganisation();
        Caller b = newOrganisation();
        Caller admin = colleague(newOrganisation(), "SYSTEM_ADMIN");
        Project projectA = project(a, "Poisoned", 1000);
        String function = Ids.newId();
        append(function, new FunctionCreatedEvent(function, projectA.id(), a.organisationId(),
                UUID.randomUUID().toString(), "Send mail", "return 1;", false, a.userId(), 2000));
        double idle = cpuShare(Duration.ofSeconds(2));
        String trace = UUID.randomUUID().toString();
        long poisoned = RawEvents.append(dataSource, "FunctionAggregate", function, RawEvents.FUNCTION_UPDATED, null,
                RawEvents.functionUpdatedRevision1(function, projectA.id(), a.organisationId(), List.of("name"),
                        "Send\u0000mail", "return 1;", false, a.userId(), 3000),
                "{\"traceId\":\"" + trace + "\"}");

        // when organisation B writes and reads after it
        Project projectB = project(b, "Healthy", 4000);
        String functionB = Ids.newId();
        long written = append(functionB, new FunctionCreatedEvent(functionB, projectB.id(), b.organisationId(),
                UUID.randomUUID().toString(), "Call me", "return 2;", false, b.userId(), 5000));
        assertThat(written).isGreaterThan(poisoned);

        // then B reads its own write at once: nobody waits for A's parked event
        long started = System.nanoTime();
        Map<String, Object> read = http.get().uri("/v2.0/functions/" + functionB).header("X-API-Key", b.apiKey())
                .header("X-Event-Position", Long.toString(written)).exchange().expectStatus().isOk()
                .expectBody(MAP).returnResult().getResponseBody();
        assertThat(read).containsEntry("name", "Call me");
        Duration readIn = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("Organisation B's read after its write, with A's sequence parked: %d ms%n", readIn.toMillis());
        assertThat(readIn).isLessThan(Duration.ofSeconds(5));

        // and A's read that must reflect the parked write is a 409 naming its trace id, not a stale row or a 503
        http.get().uri("/v2.0/functions/" + function).header("X-API-Key", a.apiKey())
                .header("X-Event-Position", Long.toString(poisoned)).exchange().expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.details.parkedTraceId").isEqualTo(trace)
                .jsonPath("$.code").isEqualTo("write-not-projected")
                .jsonPath("$.details.processingGroup").isNotEmpty();

        // and the management route lists the parked sequence with its group, sequence id, trace id and cause
        Map<String, Object> listed = deadLetters(admin);
        List<Map<String, Object>> sequences = (List<Map<String, Object>>) listed.get("sequences");
        Map<String, Object> functions = sequences.stream()
                .filter(s -> FunctionProjection.GROUP.equals(s.get("processingGroup"))).findFirst().orElseThrow();
        assertThat(functions.get("sequenceId")).isEqualTo(projectA.id());
        Map<String, Object> first = (Map<String, Object>) functions.get("firstEvent");
        assertThat(first).containsEntry("traceId", trace).containsEntry("organisationId", a.organisationId())
                .containsEntry("position", (int) poisoned);
        assertThat(((Map<String, Object>) functions.get("cause")).get("message").toString()).contains("0x00");
        // (the event log is sequenced by organisation: A's log waits, nobody else's)
        assertThat(sequences).allSatisfy(s -> assertThat(((Map<String, Object>) s.get("firstEvent"))
                .get("organisationId")).isEqualTo(a.organisationId()));
        // an organisation member may not see them
        http.get().uri("/management/v2.0/projections/deadletters").header("X-API-Key", a.apiKey()).exchange()
                .expectStatus().isForbidden();

        // and it is counted, and tried again only after a back-off (no spinning)
        assertThat(meters.get("convo.projections.parked.sequences").tag("group", FunctionProjection.GROUP).gauge()
                .value()).isEqualTo(1.0);
        assertThat(meters.get("convo.projections.parked").tag("group", FunctionProjection.GROUP).counter().count())
                .isGreaterThanOrEqualTo(1.0);
        double parkedCpu = cpuShare(Duration.ofSeconds(2));
        System.out.printf("CPU of the query service's JVM (share of one core): idle %.3f, with a sequence parked %.3f%n",
                idle, parkedCpu);
        Map<String, Object> afterWait = deadLetters(admin);
        assertThat((List<Map<String, Object>>) afterWait.get("history")).anySatisfy(h -> assertThat(h)
                .containsEntry("happened", "parked").containsEntry("processingGroup", FunctionProjection.GROUP)
                .containsEntry("traceId", trace).containsEntry("organisationId", a.organisationId()));
        assertThat((List<Map<String, Object>>) afterWait.get("sequences"))
                .as("no retry within the first back-off (5 s)").allSatisfy(s -> assertThat(s.get("retries")).isEqualTo(0));

        // when an administrator retries before the fix: still parked, and the request says so
        String before = requestRetry(admin, FunctionProjection.GROUP, projectA.id());
        assertThat(awaitRequest(admin, before)).containsEntry("status", "done")
                .hasEntrySatisfying("outcome", o -> assertThat(o.toString()).startsWith("still parked"));

        // when the stored event is fixed and every parked sequence retried (or tried again on its own meanwhile)
        // (a fix of the projection would apply both copies of the event: the parked one and the stored one)
        jdbc.update("UPDATE dead_letter_entry SET payload = convert_to(replace(convert_from(payload, 'UTF8'), "
                + "'\\u0000', ''), 'UTF8')");
        jdbc.update("UPDATE domain_event_entry SET payload = convert_to(replace(convert_from(payload, 'UTF8'), "
                + "'\\u0000', ''), 'UTF8') WHERE global_index = ?", poisoned);
        for (Map<String, Object> sequence : sequences) {
            String id = requestRetry(admin, (String) sequence.get("processingGroup"), (String) sequence.get("sequenceId"));
            assertThat(awaitRequest(admin, id)).containsEntry("status", "done")
                    .hasEntrySatisfying("outcome", o -> assertThat(o).isIn("applied", "nothing parked"));
        }

        // then nothing is parked, the audit trail says who applied it, and A reads its write
        Map<String, Object> after = deadLetters(admin);
        assertThat((List<?>) after.get("sequences")).isEmpty();
        assertThat((List<Map<String, Object>>) after.get("history")).anySatisfy(h -> assertThat(h)
                .containsEntry("happened", "applied").containsEntry("processingGroup", FunctionProjection.GROUP)
                .containsEntry("sequenceId", projectA.id()).containsEntry("actor", admin.userId()));
        Map<String, Object> fixed = http.get().uri("/v2.0/functions/" + function).header("X-API-Key", a.apiKey())
                .header("X-Event-Position", Long.toString(poisoned)).exchange().expectStatus().isOk()
                .expectBody(MAP).returnResult().getResponseBody();
        assertThat(fixed).containsEntry("name", "Sendmail");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRebuildAppliesParkedEventsAgain() throws Exception {
        // given: organisation C's function update parked for its NUL
        Caller c = newOrganisation();
        Caller admin = colleague(newOrganisation(), "SYSTEM_ADMIN");
        Project project = project(c, "Rebuilt", 1000);
        String function = Ids.newId();
        append(function, new FunctionCreatedEvent(function, project.id(), c.organisationId(),
                UUID.randomUUID().toString(), "Send mail", "return 1;", false, c.userId(), 2000));
        long poisoned = RawEvents.append(dataSource, "FunctionAggregate", function, RawEvents.FUNCTION_UPDATED, null,
                RawEvents.functionUpdatedRevision1(function, project.id(), c.organisationId(), List.of("name"),
                        "Send\u0000mail", "return 1;", false, c.userId(), 3000), "{}");
        awaitParked(FunctionProjection.GROUP, project.id());

        // when the functions are rebuilt while the event still cannot be applied
        Map<String, Object> first = awaitRebuild(requestRebuild(List.of("functions"), true));

        // then the rebuild got past it: done, identical (both lack the event), and the sequence is still parked
        assertThat(first.get("status")).as("%s", first.get("fail_reason")).isEqualTo("done");
        assertThat(first.get("identical")).isEqualTo(true);
        assertThat(parkedCount(FunctionProjection.GROUP, project.id())).isEqualTo(1);

        // when the stored event is fixed (as a fix of its projection would let it apply) and rebuilt again
        jdbc.update("UPDATE domain_event_entry SET payload = convert_to(replace(convert_from(payload, 'UTF8'), "
                + "'\\u0000', ''), 'UTF8') WHERE global_index = ?", poisoned);
        Map<String, Object> second = awaitRebuild(requestRebuild(List.of("functions"), false));

        // then the rebuilt table has it, and its dead letter went with the switch
        assertThat(second.get("status")).as("%s", second.get("fail_reason")).isEqualTo("done");
        assertThat(jdbc.queryForObject("SELECT name FROM function_view WHERE id = ?", String.class, function))
                .isEqualTo("Sendmail");
        assertThat(parkedCount(FunctionProjection.GROUP, project.id())).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM dead_letter_audit WHERE happened = 'rebuilt' AND "
                + "processing_group = ? AND sequence_identifier = ?", Long.class, FunctionProjection.GROUP, project.id()))
                .isEqualTo(1);
        Map<String, Object> read = http.get().uri("/v2.0/functions/" + function).header("X-API-Key", c.apiKey())
                .header("X-Event-Position", Long.toString(poisoned)).exchange().expectStatus().isEqualTo(409)
                .expectBody(MAP).returnResult().getResponseBody();
        // (the event log's copy is still parked: C's reads say so until it is evicted)
        assertThat((Map<String, Object>) read.get("details")).containsEntry("processingGroup", "eventlog");
        String evict = Ids.newId();
        jdbc.update("INSERT INTO dead_letter_request (id, action, processing_group, sequence_identifier) "
                + "VALUES (?, 'evict', 'eventlog', ?)", evict, c.organisationId());
        assertThat(awaitRequest(admin, evict)).containsEntry("status", "done").containsEntry("outcome",
                "evicted 1 events");
        http.get().uri("/v2.0/functions/" + function).header("X-API-Key", c.apiKey())
                .header("X-Event-Position", Long.toString(poisoned)).exchange().expectStatus().isOk();

        // and: the evicted event is missing from the live event log for good, so a rebuild that must be identical
        // refuses; one that need not be puts it back, after which live and rebuilt agree again
        Map<String, Object> refused = awaitRebuild(requestRebuild(List.of("eventlog"), true));
        assertThat(refused.get("status")).as("%s", refused).isEqualTo("failed");
        Map<String, Object> resync = awaitRebuild(requestRebuild(List.of("eventlog"), false));
        assertThat(resync.get("status")).as("%s", resync.get("fail_reason")).isEqualTo("done");
        Map<String, Object> again = awaitRebuild(requestRebuild(List.of("eventlog"), true));
        assertThat(again.get("status")).as("%s", again).isEqualTo("done");
    }

    /** The share of one core this JVM (the query service and the test) used over {@code period}. */
    private static double cpuShare(Duration period) throws InterruptedException {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long started = System.nanoTime();
        Thread.sleep(period.toMillis());
        return (os.getProcessCpuTime() - cpu) / (double) (System.nanoTime() - started);
    }

    private long parkedCount(String group, String sequence) {
        return jdbc.queryForObject("SELECT count(*) FROM dead_letter_entry WHERE processing_group = ? "
                + "AND sequence_identifier = ?", Long.class, group, sequence);
    }

    private void awaitParked(String group, String sequence) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (parkedCount(group, sequence) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(group + " did not park " + sequence);
            }
            Thread.sleep(20);
        }
    }

    private Map<String, Object> deadLetters(Caller admin) {
        return http.get().uri("/management/v2.0/projections/deadletters").header("X-API-Key", admin.apiKey())
                .exchange().expectStatus().isOk().expectBody(MAP).returnResult().getResponseBody();
    }

    /** Asks for a retry as the command service's route does; answers the request's id. */
    private String requestRetry(Caller admin, String group, String sequence) {
        String id = Ids.newId();
        jdbc.update("INSERT INTO dead_letter_request (id, action, processing_group, sequence_identifier, requested_by) "
                + "VALUES (?, 'retry', ?, ?, ?)", id, group, sequence, admin.userId());
        return id;
    }

    private Map<String, Object> awaitRequest(Caller admin, String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> request = http.get().uri("/management/v2.0/projections/deadletters/requests/" + id)
                    .header("X-API-Key", admin.apiKey()).exchange().expectStatus().isOk().expectBody(MAP)
                    .returnResult().getResponseBody();
            if (!List.of("requested", "running").contains(request.get("status"))) {
                return request;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("Request " + id + " did not end");
    }
}
