package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A password guesser through the real filter chain: five wrong passwords are free, then the e-mail is locked (429 with
 * Retry-After, even for the right password), the same whether a user has the e-mail or not; an administrator lifts the
 * lock. The first lock is 60 s here (ApiTestBase), so it holds for the whole test however slow the machine.
 */
class LoginThrottleApiTest extends ApiTestBase {

    private WebTestClient.ResponseSpec signIn(String email, String password) {
        return http.post().uri("/v2.0/users/me/apikeys").header("Authorization", basic(email, password))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "k")).exchange();
    }

    private List<String> loginEvents(String userId) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE payload_type LIKE "
                + "'ai.convo.contract.identity.Login%' AND convert_from(payload, 'UTF8')::jsonb ->> 'userId' = ? "
                + "ORDER BY global_index", String.class, userId);
    }

    private String userIdOf(String email) {
        return jdbc.queryForObject("SELECT id FROM identity_user WHERE email = ?", String.class, email);
    }

    @Test
    void givenFiveWrongPasswords_whenTheUserOrAnUnknownEmailTriesAgain_then429WithRetryAfterAndTheSameAnswer() {
        // given
        String email = "guessed@example.com";
        otherOrganisationKey(email);
        String unknown = "nobody-" + System.nanoTime() + "@example.com";
        long before = eventCount();
        for (int i = 0; i < 5; i++) {
            signIn(email, "guess-" + i).expectStatus().isUnauthorized();
            signIn(unknown, "guess-" + i).expectStatus().isUnauthorized();
        }
        // when / then: locked, even with the right password, and an unknown e-mail answers alike
        String known = signIn(email, "password-" + email).expectStatus().isEqualTo(429)
                .expectHeader().valueMatches("Retry-After", "5[0-9]|60")
                .expectBody().jsonPath("$.code").isEqualTo("429")
                .returnResult().getResponseHeaders().getFirst("Retry-After");
        signIn(unknown, "anything").expectStatus().isEqualTo(429).expectHeader().exists("Retry-After")
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("Too many failed sign-ins").contains("resetFailedLoginAttempts"));
        assertThat(known).isNotNull();
        // and: the user's five failures are events; the unknown e-mail's are not; a locked try is not an attempt
        String userId = userIdOf(email);
        // (the sign-in that made the user's key was its first success)
        assertThat(loginEvents(userId)).containsExactly("ai.convo.contract.identity.LoginSucceededEvent",
                "ai.convo.contract.identity.LoginFailedEvent", "ai.convo.contract.identity.LoginFailedEvent",
                "ai.convo.contract.identity.LoginFailedEvent", "ai.convo.contract.identity.LoginFailedEvent",
                "ai.convo.contract.identity.LoginFailedEvent");
        assertThat(eventCount() - before).isEqualTo(5);
        Map<String, Object> row = jdbc.queryForMap("SELECT failures, locked_until FROM login_throttle WHERE email = ?",
                unknown);
        assertThat(row.get("failures")).isEqualTo(5);
    }

    @Test
    void givenALockedUser_whenAnAdministratorResetsItsFailedSignIns_thenItSignsInAndTheSuccessIsRecorded() {
        // given
        String email = "locked@example.com";
        otherOrganisationKey(email);
        String userId = userIdOf(email);
        for (int i = 0; i < 5; i++) {
            signIn(email, "guess-" + i).expectStatus().isUnauthorized();
        }
        signIn(email, "password-" + email).expectStatus().isEqualTo(429);
        // when: another organisation's admin cannot, the system administrator can
        String stranger = otherOrganisationKey("stranger-admin@example.com");
        http.post().uri("/v2.0/users/{id}/resetfailedloginattempts", userId).header("X-API-Key", stranger)
                .exchange().expectStatus().isNotFound();
        signIn(email, "password-" + email).expectStatus().isEqualTo(429);
        http.post().uri("/v2.0/users/{id}/resetfailedloginattempts", userId).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isOk().expectBody().json("{}");
        // then
        signIn(email, "password-" + email).expectStatus().isCreated();
        assertThat(loginEvents(userId)).endsWith("ai.convo.contract.identity.LoginSucceededEvent");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = "
                + "'ai.convo.contract.identity.FailedLoginAttemptsResetEvent'", Long.class)).isEqualTo(1);
        // and: a second success at once is not another event (one per 15 minutes unless it ends failures)
        int events = loginEvents(userId).size();
        signIn(email, "password-" + email).expectStatus().isCreated();
        assertThat(loginEvents(userId)).hasSize(events);
    }
}
