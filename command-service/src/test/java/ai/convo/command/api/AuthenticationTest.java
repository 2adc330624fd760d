package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.TestTokens;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Each scheme accepted and refused, on an operation that accepts all five (the locale update). */
class AuthenticationTest extends ApiTestBase {

    private WebTestClient.ResponseSpec patchWith(String header, String value) {
        String locale = (String) createProject(ADMIN_KEY, "Auth", "en-US").get("primaryLocaleReference");
        return http.patch().uri("/v2.0/locales/{id}", locale)
                .header(header, value)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of())
                .exchange();
    }

    @Test
    void apiKeyInTheHeader() {
        patchWith("X-API-Key", ADMIN_KEY).expectStatus().isOk();
        patchWith("x-api-key", "not-a-key").expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("401")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("API key"));
    }

    @Test
    void apiKeyInTheQuery() {
        String locale = (String) createProject(ADMIN_KEY, "Query key", "en-US").get("primaryLocaleReference");
        http.patch().uri("/v2.0/locales/{id}?api_key={key}", locale, ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange().expectStatus().isOk();
        http.patch().uri("/v2.0/locales/{id}?api_key=nope", locale)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange().expectStatus().isUnauthorized();
    }

    @Test
    void basic() {
        patchWith("Authorization", basic(ADMIN_EMAIL, ADMIN_PASSWORD)).expectStatus().isOk();
        patchWith("Authorization", basic(ADMIN_EMAIL, "wrong")).expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("password"));
        patchWith("Authorization", "Basic %%%").expectStatus().isUnauthorized();
    }

    @Test
    void bearerAccessToken() {
        patchWith("Authorization", "Bearer " + TestTokens.bearer(adminUserId())).expectStatus().isOk();
        patchWith("Authorization", "Bearer " + TestTokens.forgedBearer(adminUserId())).expectStatus().isUnauthorized();
        patchWith("Authorization", "Bearer " + TestTokens.expiredBearer(adminUserId())).expectStatus().isUnauthorized();
        patchWith("Authorization", "Bearer " + TestTokens.bearer("cccccccccccccccccccccccc")).expectStatus().isUnauthorized();
        // A contact-center token is not an access token.
        patchWith("Authorization", "Bearer " + TestTokens.contactCenter(adminUserId())).expectStatus().isUnauthorized();
    }

    @Test
    void contactCenterToken() {
        patchWith("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(adminUserId())).expectStatus().isOk();
        patchWith("x-contactcenter-authorization", "Bearer " + TestTokens.bearer(adminUserId())).expectStatus().isUnauthorized();
        patchWith("x-contactcenter-authorization", TestTokens.contactCenter(adminUserId())).expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("Bearer"));
    }

    @Test
    void noCredentialsNamesTheAcceptedSchemes() {
        String locale = (String) createProject(ADMIN_KEY, "None", "en-US").get("primaryLocaleReference");
        http.patch().uri("/v2.0/locales/{id}", locale).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of())
                .exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("X-API-Key", "api_key", "x-contactcenter-authorization", "Basic", "Bearer"));
    }

    @Test
    void theSystemMessageRouteTakesBasicOnly() {
        // The route's policy applies before routing: an API key is the wrong scheme there (401).
        http.post().uri("/management/v2.0/system/createsystemmessage").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "m", "until", 1))
                .exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("HTTP Basic"));
    }

    @Test
    void keysAreIssuedListedOnceAndRevokedAtOnce() {
        @SuppressWarnings("unchecked")
        Map<String, Object> issued = http.post().uri("/v2.0/users/me/apikeys").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("label", "ci"))
                .exchange().expectStatus().isCreated()
                .expectHeader().value("Location", l -> assertThat(l).startsWith("/new/v2.0/users/me/apikeys/"))
                .expectBody(Map.class).returnResult().getResponseBody();
        String key = (String) issued.get("key");
        assertThat(key).matches("^[0-9a-f]{48}$");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM identity_api_key WHERE key_hash LIKE ?", Integer.class,
                "%" + key + "%")).isZero();
        patchWith("X-API-Key", key).expectStatus().isOk();

        http.delete().uri("/v2.0/users/me/apikeys/{id}", issued.get("_id")).header("X-API-Key", key)
                .exchange().expectStatus().isNoContent();

        patchWith("X-API-Key", key).expectStatus().isUnauthorized();
        http.delete().uri("/v2.0/users/me/apikeys/{id}", issued.get("_id")).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNotFound();
    }

    @Test
    void aKeyIsNamedAsTheOfficialClientNamesIt() {
        @SuppressWarnings("unchecked")
        Map<String, Object> issued = http.post().uri("/v2.0/users/me/apikeys").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "my demo"))
                .exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(issued).containsEntry("name", "my demo").containsEntry("label", "my demo")
                .containsKeys("_id", "apiKey", "createdAt");
        assertThat(issued.get("apiKey")).isEqualTo(issued.get("key"));
        patchWith("X-API-Key", (String) issued.get("apiKey")).expectStatus().isOk();

        long before = eventCount();
        http.post().uri("/v2.0/users/me/apikeys").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "one", "label", "other"))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("name", "label"));
        http.post().uri("/v2.0/users/me/apikeys").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("title", "x"))
                .exchange().expectStatus().isBadRequest();
        assertThat(eventCount()).isEqualTo(before);
        http.post().uri("/v2.0/users/me/apikeys").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "same", "label", "same"))
                .exchange().expectStatus().isCreated().expectBody().jsonPath("$.name").isEqualTo("same");
    }

    @Test
    void onlySystemAdministratorsCreateOrganisations() {
        String otherKey = otherOrganisationKey("org-admin@example.com");
        http.post().uri("/management/v2.0/organisations").header("X-API-Key", otherKey)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Nope", "adminEmail", "x@example.com", "adminPassword", "password-x"))
                .exchange().expectStatus().isForbidden().expectBody().jsonPath("$.code").isEqualTo("1000");
        http.post().uri("/management/v2.0/organisations").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Dup", "adminEmail", "ORG-ADMIN@example.com", "adminPassword", "password-x"))
                .exchange().expectStatus().isEqualTo(409);
        http.post().uri("/management/v2.0/organisations").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Bad", "adminEmail", "not-an-email", "adminPassword", "short"))
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.details.adminPassword").exists();
    }
}
