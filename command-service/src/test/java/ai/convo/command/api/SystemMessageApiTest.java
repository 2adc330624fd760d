package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.TestTokens;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** POST /management/v2.0/system/createsystemmessage over real HTTP: Basic only, system administrators only. */
class SystemMessageApiTest extends ApiTestBase {

    private static final String PATH = "/management/v2.0/system/createsystemmessage";
    private static final MediaType HAL = MediaType.parseMediaType("application/hal+json");

    private WebTestClient.ResponseSpec post(Consumer<HttpHeaders> credentials, Object body) {
        return http.post().uri(PATH).headers(credentials).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange();
    }

    private static Consumer<HttpHeaders> adminBasic() {
        return h -> h.set("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD));
    }

    private long messageEvents() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = ?", Long.class,
                "ai.convo.contract.systemmessage.SystemMessageCreatedEvent");
        return count == null ? 0 : count;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> problem) {
        return (Map<String, Object>) problem.get("details");
    }

    @Test
    void givenASystemAdministratorWithBasic_whenAMessageIsPosted_then201WithTheRecordInHalByDefault() {
        // given
        long before = messageEvents();
        // when
        var result = post(adminBasic(), Map.of("message", "Maintenance at 22:00 UTC", "until", 2_000_000_000L,
                "showOnLogin", true))
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(HAL)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectHeader().doesNotExist(HttpHeaders.LOCATION)
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = result.getResponseBody();
        assertThat(body.keySet()).containsExactly("_id", "message", "until", "showOnLogin", "createdAt", "lastChanged",
                "createdBy", "lastChangedBy", "_links");
        assertThat((String) body.get("_id")).matches("^[a-z0-9]{24}$");
        assertThat(body).containsEntry("message", "Maintenance at 22:00 UTC").containsEntry("until", 2_000_000_000)
                .containsEntry("showOnLogin", true).containsEntry("createdBy", adminUserId())
                .containsEntry("lastChangedBy", adminUserId());
        assertThat(body.get("createdAt")).isEqualTo(body.get("lastChanged"));
        assertThat(messageEvents()).isEqualTo(before + 1);
        Integer stored = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                Integer.class, body.get("_id"));
        assertThat(stored).isEqualTo(1);
    }

    @Test
    void givenNoShowOnLoginAndAcceptJson_whenPosted_thenPureJsonWithShowOnLoginFalse() {
        // given / when
        @SuppressWarnings("unchecked")
        Map<String, Object> body = http.post().uri(PATH).headers(adminBasic()).accept(MediaType.APPLICATION_JSON)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "Hello", "until", 0))
                .exchange()
                // then
                .expectStatus().isCreated().expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body).containsEntry("showOnLogin", false).containsEntry("until", 0).doesNotContainKey("_links");
    }

    @Test
    void givenAcceptXmlOrCsvOrSomethingElse_whenPosted_thenXmlCsvOr406() {
        String xml = http.post().uri(PATH).headers(adminBasic()).accept(MediaType.APPLICATION_XML)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "X", "until", 2_147_483_647L))
                .exchange().expectStatus().isCreated().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<systemMessage><_id>").contains("<until>2147483647</until>");
        String csv = http.post().uri(PATH).headers(adminBasic()).accept(MediaType.parseMediaType("text/csv"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "=cmd", "until", 5))
                .exchange().expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(csv).startsWith("_id,message,until,showOnLogin").contains("'=cmd");
        long before = messageEvents();
        http.post().uri(PATH).headers(adminBasic()).accept(MediaType.TEXT_PLAIN)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "X", "until", 5))
                .exchange().expectStatus().isEqualTo(406);
        assertThat(messageEvents()).isEqualTo(before);
    }

    // ---- authentication: Basic only, system administrators only

    @Test
    void givenNoCredentials_whenPosted_then401NamingBasic() {
        http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "m", "until", 1))
                .exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("401")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("HTTP Basic"));
    }

    @Test
    void givenValidCredentialsOfEveryOtherScheme_whenPosted_then401AndNothingStored() {
        // given: the system administrator, whose every credential is valid
        long before = messageEvents();
        Map<String, Object> body = Map.of("message", "m", "until", 1);
        // when / then
        post(h -> h.set("X-API-Key", ADMIN_KEY), body).expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("HTTP Basic"));
        http.post().uri(PATH + "?api_key={k}", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isUnauthorized();
        post(h -> h.set("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(adminUserId())), body)
                .expectStatus().isUnauthorized();
        post(h -> h.set("Authorization", "Bearer " + TestTokens.bearer(adminUserId())), body)
                .expectStatus().isUnauthorized();
        assertThat(messageEvents()).isEqualTo(before);
    }

    @Test
    void givenWrongBasicCredentials_whenPosted_then401() {
        post(h -> h.set("Authorization", basic(ADMIN_EMAIL, "wrong-password")), Map.of("message", "m", "until", 1))
                .expectStatus().isUnauthorized();
        post(h -> h.set("Authorization", basic("nobody@example.com", "whatever-1")), Map.of("message", "m", "until", 1))
                .expectStatus().isUnauthorized();
    }

    @Test
    void givenAnOrganisationAdministratorWithBasic_whenPosted_then403EvenForABadBodyAndNothingStored() {
        // given
        String email = "sysmsg-" + UUID.randomUUID() + "@example.com";
        otherOrganisationKey(email);
        long before = messageEvents();
        // when / then
        post(h -> h.set("Authorization", basic(email, "password-" + email)), Map.of("message", "m", "until", 1))
                .expectStatus().isForbidden()
                .expectBody().jsonPath("$.code").isEqualTo("1000")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("system administrator"));
        post(h -> h.set("Authorization", basic(email, "password-" + email)), Map.of("until", -5))
                .expectStatus().isForbidden();
        assertThat(messageEvents()).isEqualTo(before);
    }

    // ---- body validation

    @Test
    void givenAnInvalidBody_whenPosted_then400NamingEveryFieldAndNothingStored() {
        // given
        long before = messageEvents();
        Map<String, Object> body = new HashMap<>();
        body.put("message", "");
        body.put("until", -1);
        body.put("showOnLogin", "yes");
        body.put("colour", "red");
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(adminBasic(), body).expectStatus().isBadRequest()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(details(problem)).containsOnlyKeys("message", "until", "showOnLogin", "colour");
        assertThat((String) details(problem).get("until")).contains("0 to 2147483647");
        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat(messageEvents()).isEqualTo(before);
    }

    @Test
    void givenMissingFields_whenPosted_then400NamingThem() {
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(adminBasic(), Map.of()).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(details(problem)).containsOnlyKeys("message", "until");
        assertThat((String) details(problem).get("until")).contains("required");
    }

    @Test
    void givenUntilOfTheWrongTypeOrOutOfRange_whenPosted_then400NamingUntil() {
        long before = messageEvents();
        for (Object until : new Object[] {2_147_483_648L, -1, 1.5, "1700000000", true, Map.of()}) {
            Map<String, Object> body = new HashMap<>();
            body.put("message", "m");
            body.put("until", until);
            post(adminBasic(), body).expectStatus().isBadRequest()
                    .expectBody().jsonPath("$.details.until").exists().jsonPath("$.details.message").doesNotExist();
        }
        Map<String, Object> nulls = new HashMap<>();
        nulls.put("message", null);
        nulls.put("until", null);
        nulls.put("showOnLogin", null);
        post(adminBasic(), nulls).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.until").exists().jsonPath("$.details.message").exists()
                .jsonPath("$.details.showOnLogin").exists();
        assertThat(messageEvents()).isEqualTo(before);
    }

    @Test
    void givenAMessageOfTheWrongTypeBlankOrTooLong_whenPosted_then400NamingMessage() {
        for (Object message : new Object[] {5, "   ", "x".repeat(10_001), java.util.List.of("a")}) {
            post(adminBasic(), Map.of("message", message, "until", 1)).expectStatus().isBadRequest()
                    .expectBody().jsonPath("$.details.message").exists();
        }
        post(adminBasic(), Map.of("message", "x".repeat(10_000), "until", 1)).expectStatus().isCreated();
    }

    @Test
    void givenNoBodyMalformedJsonOrAnotherContentType_whenPosted_then400Or415() {
        http.post().uri(PATH).headers(adminBasic()).contentType(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("body is required"));
        http.post().uri(PATH).headers(adminBasic()).contentType(MediaType.APPLICATION_JSON).bodyValue("{\"until\": ")
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not valid JSON"));
        http.post().uri(PATH).headers(adminBasic()).contentType(MediaType.APPLICATION_JSON).bodyValue("[1]")
                .exchange().expectStatus().isBadRequest();
        http.post().uri(PATH).headers(adminBasic()).contentType(MediaType.TEXT_PLAIN).bodyValue("message=x")
                .exchange().expectStatus().isEqualTo(415);
    }
}
