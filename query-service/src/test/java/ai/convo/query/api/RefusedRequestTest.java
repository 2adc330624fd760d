package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.http.security.Secrets;
import ai.convo.persistence.RefusedRequests;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refused requests (401, 403) become the audit trail's 'unauthorized' events, throttled, and never carry the key
 * that was refused. Rows are written after the answer: each test waits for the recorder's writes to settle.
 */
class RefusedRequestTest extends QueryTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    RefusedRequests refusals;

    private Caller admin;

    @BeforeEach
    void organisation() {
        admin = newOrganisation();
    }

    private void settled() throws Exception {
        refusals.settled().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aMembersForbiddenRequestIsAnUnauthorizedEventOfItsOrganisationWithoutItsKey() throws Exception {
        Caller memberCaller = colleague(admin, "MEMBER");
        String member = memberCaller.userId();
        String key = memberCaller.apiKey();

        // The key in the query, where a careless record of the request would keep it.
        http.get().uri("/v2.0/auditevents?api_key=" + key).exchange().expectStatus().isForbidden();
        settled();

        String body = http.get().uri("/v2.0/auditevents?type=unauthorized").header("X-API-Key", admin.apiKey())
                .exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(body).doesNotContain(key).doesNotContain(Secrets.hashApiKey(key))
                .doesNotContain(admin.apiKey()).doesNotContain(Secrets.hashApiKey(admin.apiKey()));
        @SuppressWarnings("unchecked")
        Map<String, Object> page = JSON.readValue(body, Map.class);
        List<Map<String, Object>> items = ListPages.items(page);
        assertThat(items).singleElement().satisfies(event -> {
            assertThat(event).containsEntry("type", "unauthorized")
                    .containsEntry("user", member + "@example.com")
                    .containsEntry("userReference", member)
                    .containsEntry("organisationReference", admin.organisationId());
            @SuppressWarnings("unchecked")
            Map<String, Object> payload = (Map<String, Object>) event.get("payload");
            assertThat(payload).containsEntry("method", "GET")
                    .containsEntry("path", "/new/v2.0/auditevents")
                    .containsEntry("status", 403)
                    .containsEntry("scheme", "API_KEY_QUERY")
                    .containsEntry("repeated", 0);
            assertThat(payload.get("remoteAddress")).isNotNull();
        });
    }

    @Test
    void aFloodOfWrongKeysFromOneAddressIsAFewRowsThatCountItAll() throws Exception {
        String key = Secrets.newApiKey();
        // An address of this test alone (as a gateway would name it), so no other test's refusals share its rows.
        String address = "2001:db8::" + Ids.newId().substring(0, 4);
        long started = System.currentTimeMillis();
        for (int i = 0; i < 200; i++) {
            http.get().uri("/v2.0/flows").header("X-API-Key", key).header("X-Forwarded-For", "10.0.0.1, " + address)
                    .exchange().expectStatus().isUnauthorized();
        }
        long elapsed = System.currentTimeMillis() - started;
        // What the last window held back is written now rather than at the next sweep.
        refusals.flush();
        settled();

        List<Map<String, Object>> rows = jdbc.queryForList(
                "SELECT * FROM refused_request WHERE remote_address = ? ORDER BY occurred_at, repeated", address);
        // One row per 10 s window, and one for what the last window held back.
        assertThat(rows).isNotEmpty().hasSizeLessThanOrEqualTo(2 + (int) (elapsed / 10_000));
        assertThat(rows.get(0).get("repeated")).isEqualTo(0);
        assertThat(rows.stream().mapToInt(row -> 1 + (Integer) row.get("repeated")).sum()).isEqualTo(200);
        assertThat(rows).allSatisfy(row -> {
            // An unknown key belongs to no organisation: in no organisation's trail.
            assertThat(row.get("organisation_id")).isNull();
            assertThat(row.get("user_id")).isNull();
            assertThat(row.get("email")).isNull();
            assertThat(row).containsEntry("status", 401).containsEntry("method", "GET")
                    .containsEntry("path", "/new/v2.0/flows").containsEntry("scheme", "API_KEY_HEADER");
            assertThat(row.toString()).doesNotContain(key).doesNotContain(Secrets.hashApiKey(key));
        });
        http.get().uri("/v2.0/auditevents?type=unauthorized").header("X-API-Key", admin.apiKey())
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
    }
}
