package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The function writes over real HTTP: POST /v2.0/functions, PATCH/DELETE /v2.0/functions/{functionId}. */
class FunctionApiTest extends ApiTestBase {

    private String projectId;

    @BeforeEach
    void project() {
        projectId = (String) createProject(ADMIN_KEY, "Functions " + UUID.randomUUID(), "en-US").get("_id");
    }

    private Map<String, Object> function(String name, String code) {
        return Map.of("projectId", projectId, "name", name, "code", code);
    }

    private WebTestClient.ResponseSpec post(String key, Object body) {
        return http.post().uri("/v2.0/functions").header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> created(Object body) {
        return post(ADMIN_KEY, body).expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> patch(String key, String functionId, Object body, int status) {
        return http.patch().uri("/v2.0/functions/{f}", functionId).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private WebTestClient.ResponseSpec delete(String key, String functionId) {
        return http.delete().uri("/v2.0/functions/{f}", functionId).header("X-API-Key", key).exchange();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> problem) {
        return (Map<String, Object>) problem.get("details");
    }

    // ---- create

    @Test
    void givenAProject_whenAFunctionIsPosted_then201WithTheRecordLocationAndEventPosition() {
        // given: a project
        // when
        var result = post(ADMIN_KEY, function("Send mail", "return 1;"))
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = result.getResponseBody();
        assertThat(body.keySet()).containsExactly("_id", "name", "code", "referenceId", "isDisabled", "createdAt",
                "lastChanged", "createdBy", "lastChangedBy");
        assertThat(body).containsEntry("name", "Send mail").containsEntry("code", "return 1;")
                .containsEntry("isDisabled", false).containsEntry("createdBy", adminUserId());
        assertThat((String) body.get("_id")).matches("^[a-z0-9]{24}$");
        assertThat((String) body.get("referenceId")).matches("[0-9a-f-]{36}");
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/functions/" + body.get("_id"));
    }

    @Test
    void givenAProject_whenADisabledFunctionIsPostedAsHal_thenItIsDisabledWithLinks() {
        // given / when / then
        http.post().uri("/v2.0/functions").header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.parseMediaType("application/hal+json")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "Off", "code", "", "isDisabled", true)).exchange()
                .expectStatus().isCreated().expectHeader().contentType("application/hal+json")
                .expectBody().jsonPath("$.isDisabled").isEqualTo(true).jsonPath("$.code").isEqualTo("")
                .jsonPath("$._links.self.href").exists();
    }

    @Test
    void givenCodeOfExactlyTheLimit_whenPosted_then201() {
        // given / when / then
        Map<String, Object> body = created(function("Big", "x".repeat(500_000)));
        assertThat((String) body.get("code")).hasSize(500_000);
    }

    @Test
    void givenCodeOverTheLimit_whenPosted_then400NamingTheLimitAndTheLengthAndNothingIsStored() {
        // given
        long before = eventCount();
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, function("Big", "x".repeat(500_001)))
                .expectStatus().isBadRequest().expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(details(problem)).containsOnlyKeys("code");
        assertThat((String) details(problem).get("code")).contains("500000", "500001");
        assertThat((String) problem.get("detail")).contains("code", "500000", "500001");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnInvalidBody_whenPosted_then400NamingEveryField() {
        // given
        Map<String, Object> body = new HashMap<>();
        body.put("projectId", "nope");
        body.put("name", "");
        body.put("code", 12);
        body.put("isDisabled", "yes");
        body.put("runtime", "node");
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, body).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(details(problem)).containsOnlyKeys("projectId", "name", "code", "isDisabled", "runtime");
        @SuppressWarnings("unchecked")
        Map<String, Object> missing = post(ADMIN_KEY, Map.of()).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(details(missing)).containsOnlyKeys("projectId", "name", "code");
    }

    @Test
    void givenAnUnknownOrForeignProject_whenPosting_then404() {
        // given
        String stranger = otherOrganisationKey("functions-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        post(ADMIN_KEY, Map.of("projectId", Ids.newId(), "name", "x", "code", "")).expectStatus().isNotFound();
        post(stranger, function("x", "")).expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenWrongContentTypeOrAccept_whenPosting_then415Or406() {
        // given
        long before = eventCount();
        // when / then
        http.post().uri("/v2.0/functions").header("X-API-Key", ADMIN_KEY).contentType(MediaType.TEXT_PLAIN)
                .bodyValue("name=x").exchange().expectStatus().isEqualTo(415);
        http.post().uri("/v2.0/functions").header("X-API-Key", ADMIN_KEY).accept(MediaType.IMAGE_PNG)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(function("x", "")).exchange()
                .expectStatus().isEqualTo(406);
        http.post().uri("/v2.0/functions").header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\"").exchange().expectStatus().isBadRequest();
        assertThat(eventCount()).isEqualTo(before);
    }

    // ---- update

    @Test
    void givenAFunction_whenPatched_then200WithTheFullUpdatedRecord() {
        // given
        Map<String, Object> function = created(function("Send mail", "return 1;"));
        String id = (String) function.get("_id");
        // when
        Map<String, Object> updated = patch(ADMIN_KEY, id, Map.of("isDisabled", true, "code", "return 2;"), 200);
        // then
        assertThat(updated).containsEntry("_id", id).containsEntry("name", "Send mail")
                .containsEntry("code", "return 2;").containsEntry("isDisabled", true)
                .containsEntry("referenceId", function.get("referenceId"))
                .containsEntry("createdAt", function.get("createdAt"));
        assertThat(patch(ADMIN_KEY, id, Map.of(), 200)).isEqualTo(updated);
        assertThat(patch(ADMIN_KEY, id, Map.of("name", "Renamed"), 200)).containsEntry("name", "Renamed");
    }

    @Test
    void givenAFunction_whenPatchedWithCodeOverTheLimitOrBadFields_then400NamingThem() {
        // given
        String id = (String) created(function("Send mail", "return 1;")).get("_id");
        Map<String, Object> body = new HashMap<>();
        body.put("code", "x".repeat(500_001));
        body.put("name", null);
        body.put("isDisabled", 1);
        body.put("projectId", projectId);
        // when
        Map<String, Object> problem = patch(ADMIN_KEY, id, body, 400);
        // then
        assertThat(details(problem)).containsOnlyKeys("code", "name", "isDisabled", "projectId");
        assertThat((String) details(problem).get("code")).contains("500000", "500001");
    }

    @Test
    void givenUnknownForeignOrMalformedFunctions_whenPatched_then404Or400() {
        // given
        String id = (String) created(function("Send mail", "return 1;")).get("_id");
        String stranger = otherOrganisationKey("functions-" + UUID.randomUUID() + "@example.com");
        // when / then
        patch(ADMIN_KEY, Ids.newId(), Map.of("name", "x"), 404);
        patch(stranger, id, Map.of("name", "x"), 404);
        assertThat(details(patch(ADMIN_KEY, "bad", Map.of("name", "x"), 400))).containsKey("functionId");
        http.patch().uri("/v2.0/functions/{f}", id).header("X-API-Key", ADMIN_KEY).contentType(MediaType.TEXT_PLAIN)
                .bodyValue("x").exchange().expectStatus().isEqualTo(415);
        http.patch().uri("/v2.0/functions/{f}", id).header("X-API-Key", ADMIN_KEY).accept(MediaType.IMAGE_PNG)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "y")).exchange()
                .expectStatus().isEqualTo(406);
    }

    // ---- delete

    @Test
    void givenAFunction_whenDeleted_then204AndThen404() {
        // given
        String id = (String) created(function("Send mail", "return 1;")).get("_id");
        String stranger = otherOrganisationKey("functions-" + UUID.randomUUID() + "@example.com");
        // when / then
        delete(stranger, id).expectStatus().isNotFound();
        delete(ADMIN_KEY, id).expectStatus().isNoContent().expectHeader().exists("X-Event-Position");
        delete(ADMIN_KEY, id).expectStatus().isNotFound();
        patch(ADMIN_KEY, id, Map.of("name", "x"), 404);
        delete(ADMIN_KEY, "bad").expectStatus().isBadRequest().expectBody().jsonPath("$.details.functionId").exists();
    }

    @Test
    void givenADeletedProject_whenItsFunctionsAreChanged_then404() {
        // given
        String id = (String) created(function("Send mail", "return 1;")).get("_id");
        http.delete().uri("/v2.0/projects/{p}", projectId).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent();
        // when / then
        patch(ADMIN_KEY, id, Map.of("name", "x"), 404);
        delete(ADMIN_KEY, id).expectStatus().isNotFound();
        post(ADMIN_KEY, function("New", "")).expectStatus().isNotFound();
    }
}
