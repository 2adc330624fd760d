package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.http.security.Secrets;
import ai.convo.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The caller's API keys, and the specification's per-route schemes as the query service applies them. */
class IdentityQueryTest extends QueryTestBase {

    @Test
    void theKeyListShowsOnlyTheCallersActiveKeysWithoutSecrets() {
        Caller caller = newOrganisation();
        String revoked = Ids.newId();
        jdbc.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at, revoked_at) "
                + "VALUES (?, ?, ?, 'old', ?, 5, 6)", revoked, caller.userId(), caller.organisationId(),
                Secrets.hashApiKey(Secrets.newApiKey()));
        Caller other = newOrganisation();
        byte[] raw = http.get().uri("/v2.0/users/me/apikeys").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk()
                .expectBody()
                .jsonPath("$.total").isEqualTo(1)
                .jsonPath("$.items[0].label").isEqualTo("test")
                .jsonPath("$.items[0].name").isEqualTo("test")
                .returnResult().getResponseBodyContent();
        assertThat(new String(raw, StandardCharsets.UTF_8)).doesNotContain("key_hash")
                .doesNotContain(Secrets.hashApiKey(caller.apiKey())).doesNotContain(caller.apiKey()).doesNotContain(revoked);

        http.get().uri("/v2.0/users/me/apikeys/{id}", revoked).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isNotFound();
        String ownKey = jdbc.queryForObject("SELECT id FROM identity_api_key WHERE user_id = ? AND revoked_at IS NULL",
                String.class, caller.userId());
        http.get().uri("/v2.0/users/me/apikeys/{id}", ownKey).header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$._id").isEqualTo(ownKey);
        http.get().uri("/v2.0/users/me/apikeys/{id}", ownKey).header("X-API-Key", other.apiKey())
                .exchange().expectStatus().isNotFound();
    }

    @Test
    void theTokenListTakesOnlyApiKeysAndContactCenterTokens() {
        Caller caller = newOrganisation();
        String basic = "Basic " + Base64.getEncoder().encodeToString((caller.userId() + "@example.com:pw-"
                + caller.userId()).getBytes(StandardCharsets.UTF_8));
        // Valid credentials of a scheme the route does not take: 401 naming the accepted schemes.
        http.get().uri("/v2.0/projects/{id}/snippets", Ids.newId()).header("Authorization", basic)
                .exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("does not accept HTTP Basic").contains("X-API-Key"));
        http.get().uri("/v2.0/projects/{id}/snippets", Ids.newId())
                .header("Authorization", "Bearer " + TestTokens.bearer(caller.userId()))
                .exchange().expectStatus().isUnauthorized();
        // The same Basic credentials work where the default schemes apply.
        http.get().uri("/v2.0/projects").header("Authorization", basic).exchange().expectStatus().isOk();
        http.get().uri("/v2.0/projects").header("Authorization", "Bearer " + TestTokens.bearer(caller.userId()))
                .exchange().expectStatus().isOk();
        http.get().uri("/v2.0/projects").header("x-contactcenter-authorization",
                "Bearer " + TestTokens.contactCenter(caller.userId())).exchange().expectStatus().isOk();
        http.get().uri("/v2.0/projects?api_key=" + caller.apiKey()).exchange().expectStatus().isOk();
    }

    @Test
    void theStateAndIntentListsDoNotTakeAccessTokens() {
        Caller caller = newOrganisation();
        for (String list : new String[] {"states", "intents"}) {
            http.get().uri("/v2.0/flows/{id}/" + list, Ids.newId())
                    .header("Authorization", "Bearer " + TestTokens.bearer(caller.userId()))
                    .exchange().expectStatus().isUnauthorized();
        }
    }

    @Test
    void theSystemMessageReadIsPublicAndHealthToo() {
        http.get().uri("/health").exchange().expectStatus().isOk();
        // The view is shared by every test class of this database; another may have left a message valid for an hour.
        jdbc.update("DELETE FROM system_message_view");
        // No credentials and no such message: a 404, not a 401.
        http.get().uri("/v2.0/system/message").exchange().expectStatus().isNotFound();
    }

    @Test
    void givenPasswordSignInsOnThisService_whenTheUserListsThem_thenFailuresAndTheSuccessShowAtOnce() {
        // given: two wrong passwords and a right one, on the query service's own filter chain
        Caller caller = newOrganisation();
        Caller other = newOrganisation();
        String email = caller.userId() + "@example.com";
        for (String password : new String[] {"wrong-1", "wrong-2", "pw-" + caller.userId()}) {
            http.get().uri("/v2.0/projects").header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((email + ":" + password).getBytes(StandardCharsets.UTF_8))).exchange();
        }
        // when / then: read back at once, oldest first, newest last
        http.get().uri("/v2.0/users/me/loginattempts").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk()
                .expectBody()
                .jsonPath("$.total").isEqualTo(3)
                .jsonPath("$.items[0].status").isEqualTo("failed")
                .jsonPath("$.items[1].status").isEqualTo("failed")
                .jsonPath("$.items[2].status").isEqualTo("success")
                .jsonPath("$.items[2].timestamp").isNumber();
        http.get().uri("/v2.0/users/me/loginattempts?sort=timestamp:desc&limit=1").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.items[0].status").isEqualTo("success");
        http.get().uri("/v2.0/users/me/lastloginattempt").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("success");
        // and: nobody else's
        http.get().uri("/v2.0/users/me/loginattempts").header("X-API-Key", other.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
        http.get().uri("/v2.0/users/me/lastloginattempt").header("X-API-Key", other.apiKey())
                .exchange().expectStatus().isNotFound();
    }
}
