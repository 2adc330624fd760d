package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.web.reactive.function.BodyInserters;
import tools.jackson.databind.json.JsonMapper;

/**
 * A large import goes only as fast as the read side takes it in (issue 37): it is applied in parts, and each part
 * waits until every live processor segment, of any service, is at most 1,000 of its events behind. A read-side segment is
 * stood in for by a token_entry row this test claims and moves, as a query service's processor would.
 */
class IntentImportPaceApiTest extends SnapshotWorkSupport {

    private static final String READ_SIDE = "pace-test-read-side";
    /** 300 intents × 5 sentences: 1,800 events, eight parts of about 250 (up to 1,000 events ahead of the read side). */
    private static final int INTENTS = 300;
    /** A part closes at the first intent past 250 events: 42 intents of 6 events each. */
    private static final int PART_INTENTS = 42;
    /** Parts written before one waits for a read side that stays where it was: 4 × 252 events pass the 1,000 backlog. */
    private static final int HELD_AFTER = 4;

    @AfterEach
    void dropReadSide() {
        jdbc.update("DELETE FROM token_entry WHERE processor_name = ?", READ_SIDE);
    }

    @Test
    void givenAReadSideThatHasNotTakenInThePartBefore_whenALargeFileIsImported_thenTheNextPartWaitsForIt()
            throws Exception {
        // given: a flow, and a live read-side segment that processed everything up to now
        Built built = buildProject("Paced import");
        long before = intentsIn(built.flowId());
        long head = head();
        claim(head);

        // when: a file of four parts is imported
        String taskId = importFile(built);

        // then: the first parts are applied, and the next waits while the segment stays where it is
        eventually(() -> intentsIn(built.flowId()) == before + HELD_AFTER * PART_INTENTS, "the parts within the backlog");
        Thread.sleep(1_000);
        assertThat(intentsIn(built.flowId())).as("intents imported while the read side did not move")
                .isEqualTo(before + HELD_AFTER * PART_INTENTS);
        assertThat(status(taskId)).isEqualTo("active");

        // and: once the segment follows the log, every part is applied
        try (ReadSide following = new ReadSide()) {
            awaitDone(taskId);
        }
        assertThat(intentsIn(built.flowId())).isEqualTo(before + INTENTS);
        assertThat(sentencesIn(built.flowId())).isGreaterThanOrEqualTo(INTENTS * 5L);
    }

    @Test
    void givenAReadSideThatIsStuck_whenALargeFileIsImported_thenTheImportGoesOnWithoutIt() {
        // given: a live read-side segment that never moves (its service hangs)
        Built built = buildProject("Import past a stuck read side");
        long before = intentsIn(built.flowId());
        claim(head());

        // when
        String taskId = importFile(built);

        // then: the import waits at most the stall time once, and is done with every intent
        long started = System.nanoTime();
        awaitDone(taskId);
        assertThat((System.nanoTime() - started) / 1_000_000).as("ms to import").isLessThan(15_000);
        assertThat(intentsIn(built.flowId())).isEqualTo(before + INTENTS);
    }

    @Test
    void givenAFlowThatChangesUnderARunningImport_whenAPartNoLongerApplies_thenTheTaskSaysHowManyIntentsWereImported()
            throws Exception {
        // given: a file whose last intent is a child of the flow's intent "Order", held after its first parts
        Built built = buildProject("Import that stops applying");
        long before = intentsIn(built.flowId());
        claim(head());
        String taskId = importFile(built, "Order");
        eventually(() -> intentsIn(built.flowId()) == before + HELD_AFTER * PART_INTENTS, "the parts within the backlog");

        // when: "Order" is deleted meanwhile, and the read side then follows the log
        send(org.springframework.http.HttpMethod.DELETE, "/v2.0/flows/" + built.flowId() + "/intents/"
                + built.parentIntentId(), null).expectStatus().is2xxSuccessful();
        String end;
        try (ReadSide following = new ReadSide()) {
            end = awaitEnd(taskId);
        }

        // then: the parts before the last are imported, the last is not, and the task says so
        assertThat(end).isEqualTo("error");
        int imported = INTENTS / PART_INTENTS * PART_INTENTS;
        assertThat(failReason(taskId)).contains(imported + " of the file's " + INTENTS + " intents to create or change "
                + "were imported before", "importing the file again with mode skip adds the rest");
        assertThat(intentsIn(built.flowId())).isEqualTo(before + imported);
    }

    // ---- helpers

    /** The stand-in segment following the head of the log every 50 ms, as a live processor would, until closed. */
    private final class ReadSide implements AutoCloseable {

        private final AtomicBoolean following = new AtomicBoolean(true);
        private final Thread thread = new Thread(() -> {
            while (following.get()) {
                claim(head());
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });

        ReadSide() {
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            following.set(false);
            thread.join();
        }
    }

    private String importFile(Built built) {
        return importFile(built, null);
    }

    /** {@link #INTENTS} intents of five sentences; the last one a child of {@code lastParent} when not null. */
    private String importFile(Built built, String lastParent) {
        List<Map<String, Object>> intents = new ArrayList<>();
        for (int i = 0; i < INTENTS; i++) {
            Map<String, Object> intent = new java.util.HashMap<>(Map.of("name", "Imported " + i, "exampleSentences",
                    List.of("first " + i, "second " + i, "third " + i, "fourth " + i, "fifth " + i)));
            if (lastParent != null && i == INTENTS - 1) {
                intent.put("parentIntentName", lastParent);
            }
            intents.add(intent);
        }
        byte[] file = JsonMapper.builder().build().writeValueAsString(intents).getBytes(StandardCharsets.UTF_8);
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("localeId", built.primaryLocaleId());
        parts.part("mode", "skip");
        parts.part("file", new ByteArrayResource(file) {
            @Override
            public String getFilename() {
                return "intents.json";
            }
        });
        @SuppressWarnings("unchecked")
        Map<String, Object> task = http.post().uri("/v2.0/flows/" + built.flowId() + "/intents/import")
                .header("X-API-Key", ADMIN_KEY).contentType(MediaType.MULTIPART_FORM_DATA)
                .body(BodyInserters.fromMultipartData(parts.build())).exchange()
                .expectStatus().isAccepted().expectBody(Map.class).returnResult().getResponseBody();
        return (String) task.get("_id");
    }

    private long head() {
        return jdbc.queryForObject("SELECT coalesce(max(global_index), 0) FROM domain_event_entry", Long.class);
    }

    /** The stand-in segment: claimed now, having processed {@code index}. */
    private void claim(long index) {
        jdbc.update("INSERT INTO token_entry (processor_name, segment, token, token_type, time_stamp, owner) "
                        + "VALUES (?, 0, ?, ?, ?, 'pace-test') ON CONFLICT (processor_name, segment) "
                        + "DO UPDATE SET token = EXCLUDED.token, time_stamp = EXCLUDED.time_stamp", READ_SIDE,
                ("{\"index\":" + index + ",\"gaps\":[]}").getBytes(StandardCharsets.UTF_8),
                "org.axonframework.eventhandling.GapAwareTrackingToken", Instant.now().toString());
    }

    private long intentsIn(String flowId) {
        return count("IntentCreatedEvent", flowId);
    }

    private long sentencesIn(String flowId) {
        return count("SentenceCreatedEvent", flowId);
    }

    private long count(String type, String flowId) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type LIKE ? "
                + "AND convert_from(payload, 'UTF8')::jsonb ->> 'flowId' = ?", Long.class, "%." + type, flowId);
    }
}
