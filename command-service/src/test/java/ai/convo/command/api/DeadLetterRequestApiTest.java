package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * POST /management/v2.0/projections/deadletters/{retry,evict} over real HTTP: a system administrator's request to
 * retry or evict a parked projection sequence, recorded for a query replica to do (dead_letter_request). The parked
 * sequence is played here by a row of dead_letter_entry, as a query replica's processor would have written it.
 */
class DeadLetterRequestApiTest extends ApiTestBase {

    private static final String RETRY = "/management/v2.0/projections/deadletters/retry";

    private void parked(String group, String sequence) {
        jdbc.update("INSERT INTO dead_letter_entry (dead_letter_id, processing_group, sequence_identifier, "
                + "sequence_index, message_type, event_identifier, time_stamp, payload_type, payload, enqueued_at) "
                + "VALUES (?, ?, ?, 0, 'EventMessage', ?, '2026-01-01T00:00:00Z', 'x', '\\x7b7d', "
                + "'2026-01-01T00:00:00Z')", java.util.UUID.randomUUID().toString(), group, sequence,
                java.util.UUID.randomUUID().toString());
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAParkedSequence_whenASystemAdministratorAsksForARetry_thenTheRequestIsRecordedFor202() {
        // given
        String sequence = "seq-" + System.nanoTime();
        parked("functions", sequence);

        // when
        Map<String, Object> request = http.post().uri(RETRY).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("processingGroup", "functions", "sequenceId", sequence)).exchange()
                .expectStatus().isAccepted()
                .expectHeader().value("Location", l -> assertThat(l)
                        .matches("/new/management/v2\\.0/projections/deadletters/requests/[a-z0-9]{24}"))
                .expectBody(Map.class).returnResult().getResponseBody();

        // then
        assertThat(request).containsEntry("action", "retry").containsEntry("status", "requested")
                .containsEntry("processingGroup", "functions").containsEntry("sequenceId", sequence);
        assertThat(jdbc.queryForMap("SELECT action, processing_group, sequence_identifier, status FROM "
                + "dead_letter_request WHERE id = ?", request.get("_id")))
                .containsEntry("action", "retry").containsEntry("sequence_identifier", sequence)
                .containsEntry("status", "requested");
    }

    @Test
    void givenNothingParked_whenARetryIsAsked_thenA404AndNothingIsRecorded() {
        long before = jdbc.queryForObject("SELECT count(*) FROM dead_letter_request", Long.class);
        http.post().uri(RETRY).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("processingGroup", "functions", "sequenceId", "nothing-here")).exchange()
                .expectStatus().isNotFound();
        http.post().uri("/management/v2.0/projections/deadletters/drop").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("processingGroup", "functions", "sequenceId", "x")).exchange()
                .expectStatus().isNotFound();
        http.post().uri(RETRY).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("processingGroup", "functions", "sequenceId", "x", "extra", 1)).exchange()
                .expectStatus().isBadRequest();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM dead_letter_request", Long.class)).isEqualTo(before);
    }

    @Test
    void givenAnOrganisationAdministrator_whenARetryIsAsked_thenA403() {
        String key = otherOrganisationKey("dl-" + System.nanoTime() + "@example.com");
        http.post().uri(RETRY).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("processingGroup", "functions", "sequenceId", "x")).exchange()
                .expectStatus().isForbidden();
    }
}
