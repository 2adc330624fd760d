package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.systemmessage.SystemMessageCreatedEvent;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** GET /v2.0/system/message: public, the newest message whose until is still in the future, or 404. */
class SystemMessageQueryTest extends QueryTestBase {

    private static final String ADMIN = "aaaaaaaaaaaaaaaaaaaaaaaa";
    private long now;

    /** System messages are global; each test starts from none (their events were all processed before). */
    @BeforeEach
    void noMessages() {
        jdbc.update("DELETE FROM system_message_view");
        now = Instant.now().getEpochSecond();
    }

    private long message(String id, String text, long until, boolean showOnLogin, long createdAt) {
        return append(id, new SystemMessageCreatedEvent(id, text, until, showOnLogin, ADMIN, createdAt));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> current(long position) {
        return http.get().uri("/v2.0/system/message").header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @Test
    void givenAMessageStillValid_whenReadWithoutCredentials_thenTheRecord() {
        // given
        String id = Ids.newId();
        long position = message(id, "Maintenance tonight", now + 3600, true, now - 10);
        // when
        Map<String, Object> body = current(position);
        // then
        assertThat(body).containsExactlyEntriesOf(new java.util.LinkedHashMap<>(Map.of()) {{
            put("_id", id);
            put("message", "Maintenance tonight");
            put("until", (int) (now + 3600));
            put("showOnLogin", true);
            put("createdAt", (int) (now - 10));
            put("lastChanged", (int) (now - 10));
            put("createdBy", ADMIN);
            put("lastChangedBy", ADMIN);
        }});
    }

    @Test
    void givenSeveralMessages_whenRead_thenTheNewestWhoseUntilIsInTheFuture() {
        // given: an older valid one, a newer expired one, and a newest one that is valid
        message(Ids.newId(), "older", now + 3600, false, now - 300);
        message(Ids.newId(), "newer but over", now - 1, false, now - 200);
        String newest = Ids.newId();
        long position = message(newest, "newest", now + 60, false, now - 100);
        // when / then
        assertThat(current(position)).containsEntry("_id", newest).containsEntry("message", "newest");
        // and once the newest is the expired one, the older valid one shows
        jdbc.update("DELETE FROM system_message_view WHERE id = ?", newest);
        assertThat(current(position)).containsEntry("message", "older");
    }

    @Test
    void givenTwoMessagesCreatedInTheSameSecond_whenRead_thenTheGreaterIdWins() {
        long position = message("000000000000000000000aaa", "a", now + 60, false, now);
        position = Math.max(position, message("000000000000000000000bbb", "b", now + 60, false, now));
        assertThat(current(position)).containsEntry("message", "b");
    }

    @Test
    void givenOnlyExpiredMessages_whenRead_then404ProblemWithLogLevel() {
        // given: until is exclusive: a message whose until is now is over
        message(Ids.newId(), "over", now - 100, false, now - 200);
        long position = message(Ids.newId(), "over at this second", now, false, now - 100);
        // when / then
        http.get().uri("/v2.0/system/message").header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.code").isEqualTo("1000").jsonPath("$.logLevel").exists()
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("no current system message"));
    }

    @Test
    void givenNoMessageAtAll_whenRead_then404() {
        http.get().uri("/v2.0/system/message").exchange().expectStatus().isNotFound();
    }

    @Test
    void givenAMessage_whenReadAsHalXmlCsvOrUnacceptable_thenThatFormOr406() {
        long position = message(Ids.newId(), "=formula", now + 60, true, now);
        String header = Long.toString(position);
        http.get().uri("/v2.0/system/message").header("X-Event-Position", header)
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._links.self.href").isEqualTo("/new/v2.0/system/message");
        String xml = http.get().uri("/v2.0/system/message").accept(MediaType.TEXT_XML).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<systemMessage>").contains("<showOnLogin>true</showOnLogin>");
        String csv = http.get().uri("/v2.0/system/message").accept(MediaType.parseMediaType("text/csv")).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv).contains("'=formula");
        http.get().uri("/v2.0/system/message").accept(MediaType.IMAGE_PNG).exchange().expectStatus().isEqualTo(406);
    }

    @Test
    void givenAnyCredentials_whenRead_thenThePublicAnswerAllTheSame() {
        // The route is public: whatever a client sends along (even a bad key) is not looked at.
        long position = message(Ids.newId(), "for all", now + 60, false, now);
        Caller caller = newOrganisation();
        for (String[] header : new String[][] {{"X-API-Key", caller.apiKey()}, {"X-API-Key", "not-a-key"},
                {"Authorization", "Bearer not-a-jwt"}}) {
            http.get().uri("/v2.0/system/message").header("X-Event-Position", Long.toString(position))
                    .header(header[0], header[1]).exchange()
                    .expectStatus().isOk().expectBody().jsonPath("$.message").isEqualTo("for all");
        }
    }

    @Test
    void givenAMalformedEventPosition_whenRead_then400() {
        http.get().uri("/v2.0/system/message").header("X-Event-Position", "soon").exchange()
                .expectStatus().isBadRequest();
    }
}
