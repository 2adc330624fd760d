package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.token.DefaultTokens;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The token (snippet) writes over real HTTP: POST/PATCH/DELETE /v2.0/projects/{projectId}/snippets[/{id}]. */
class TokenApiTest extends ApiTestBase {

    private String projectId;

    @BeforeEach
    void project() {
        projectId = (String) createProject(ADMIN_KEY, "Tokens " + UUID.randomUUID(), "en-US").get("_id");
    }

    private static Map<String, Object> token(String label, String type, String script) {
        return Map.of("label", label, "type", type, "script", script);
    }

    private WebTestClient.ResponseSpec post(String key, String project, Object body) {
        return http.post().uri("/v2.0/projects/{p}/snippets", project).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> created(Object body) {
        return post(ADMIN_KEY, projectId, body).expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> patch(String key, String project, String tokenId, Object body, int status) {
        return http.patch().uri("/v2.0/projects/{p}/snippets/{t}", project, tokenId).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private WebTestClient.ResponseSpec delete(String key, String project, String tokenId) {
        return http.delete().uri("/v2.0/projects/{p}/snippets/{t}", project, tokenId).header("X-API-Key", key).exchange();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> problem) {
        return (Map<String, Object>) problem.get("details");
    }

    private String otherOrganisation() {
        return otherOrganisationKey("tokens-" + UUID.randomUUID() + "@example.com");
    }

    // ---- create

    @Test
    void givenAProject_whenATokenIsPosted_then201WithTheRecordLocationAndEventPosition() {
        // given: a project
        // when
        var result = post(ADMIN_KEY, projectId, token("Order number", "flow-output", "context.orderNumber"))
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = result.getResponseBody();
        assertThat(body.keySet()).containsExactly("_id", "label", "type", "script", "referenceId", "createdAt",
                "lastChanged", "createdBy", "lastChangedBy");
        assertThat((String) body.get("_id")).matches("^[a-z0-9]{24}$");
        assertThat(body).containsEntry("label", "Order number").containsEntry("type", "flow-output")
                .containsEntry("script", "context.orderNumber").containsEntry("createdBy", adminUserId())
                .containsEntry("lastChangedBy", adminUserId());
        assertThat((String) body.get("referenceId")).matches("[0-9a-f-]{36}");
        assertThat(body.get("createdAt")).isEqualTo(body.get("lastChanged"));
        assertThat(result.getResponseHeaders().getLocation()).hasToString(
                "/new/v2.0/projects/" + projectId + "/snippets/" + body.get("_id"));
        Integer stored = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type = ?", Integer.class, body.get("_id"), "ai.convo.contract.token.TokenCreatedEvent");
        assertThat(stored).isEqualTo(1);
    }

    @Test
    void givenAProject_whenATokenIsPostedAskingForXml_thenTheRecordIsXml() {
        // given / when
        String xml = http.post().uri("/v2.0/projects/{p}/snippets", projectId).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.APPLICATION_XML).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(token("Xml", "custom", "1")).exchange()
                // then
                .expectStatus().isCreated().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<token><_id>").contains("<label>Xml</label>", "<type>custom</type>");
    }

    @Test
    void givenAnInvalidBody_whenPosted_then400NamingEveryFieldAndNothingIsStored() {
        // given
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("label", "");
        body.put("type", "favourite");
        body.put("script", 5);
        body.put("colour", "red");
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, projectId, body).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat(details(problem)).containsOnlyKeys("label", "type", "script", "colour");
        assertThat((String) details(problem).get("type"))
                .contains("profile, input, context, custom, answer, flow-output, flow-input");
        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAMissingBodyOrFields_whenPosted_then400() {
        // given / when / then
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, projectId, Map.of()).expectStatus().isBadRequest()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(details(problem)).containsOnlyKeys("label", "type", "script");
        http.post().uri("/v2.0/projects/{p}/snippets", projectId).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("body is required"));
    }

    @Test
    void givenTooLongValues_whenPosted_then400NamingTheLimits() {
        // given / when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = post(ADMIN_KEY, projectId, token("l".repeat(201), "custom", "s".repeat(100_001)))
                .expectStatus().isBadRequest().expectBody(Map.class).returnResult().getResponseBody();
        // then
        assertThat((String) details(problem).get("label")).contains("1 to 200", "201");
        assertThat((String) details(problem).get("script")).contains("1 to 100000", "100001");
    }

    @Test
    void givenTheLongestAllowedValues_whenPosted_then201() {
        // given / when / then
        Map<String, Object> body = created(token("l".repeat(200), "answer", "s".repeat(100_000)));
        assertThat((String) body.get("script")).hasSize(100_000);
    }

    @Test
    void givenAnUnknownForeignOrMalformedProject_whenPosting_then404Or400() {
        // given
        String stranger = otherOrganisation();
        long before = eventCount();
        // when / then
        post(ADMIN_KEY, Ids.newId(), token("A", "custom", "x")).expectStatus().isNotFound()
                .expectBody().jsonPath("$.logLevel").exists();
        post(stranger, projectId, token("A", "custom", "x")).expectStatus().isNotFound();
        post(ADMIN_KEY, "NOT-AN-ID", token("A", "custom", "x")).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.projectId").exists();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenATokenLabel_whenAnotherTokenTakesItInOtherCase_then409AndElsewhereItIsFine() {
        // given
        created(token("Greeting", "custom", "x"));
        // when / then
        post(ADMIN_KEY, projectId, token("GREETING", "custom", "y")).expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("1004")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("unique per project"));
        String other = (String) createProject(ADMIN_KEY, "Tokens elsewhere", "en-US").get("_id");
        post(ADMIN_KEY, other, token("Greeting", "custom", "x")).expectStatus().isCreated();
    }

    @ParameterizedTest
    @ValueSource(strings = {"First Name", "first name", "E-MAIL", "Input Text", "context", "Flow Output"})
    void givenTheDefaultTokens_whenACustomTokenTakesADefaultLabel_then409(String label) {
        // given: every project has the default tokens
        // when / then
        post(ADMIN_KEY, projectId, token(label, "custom", "x")).expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("default tokens are built in"));
    }

    @Test
    void givenWrongContentTypeOrMalformedJson_whenPosting_then415Or400() {
        // given / when / then
        http.post().uri("/v2.0/projects/{p}/snippets", projectId).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.TEXT_PLAIN).bodyValue("label=x").exchange()
                .expectStatus().isEqualTo(415)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("application/json"));
        http.post().uri("/v2.0/projects/{p}/snippets", projectId).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"label\": ").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not valid JSON"));
    }

    @Test
    void givenAnUnacceptableAccept_whenPosting_then406AndNothingIsStored() {
        // given
        long before = eventCount();
        // when / then
        http.post().uri("/v2.0/projects/{p}/snippets", projectId).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.IMAGE_PNG).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(token("Never", "custom", "x")).exchange()
                .expectStatus().isEqualTo(406)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("text/csv"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenNoCredentials_whenPosting_then401() {
        // given / when / then
        http.post().uri("/v2.0/projects/{p}/snippets", projectId).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(token("A", "custom", "x")).exchange().expectStatus().isUnauthorized();
    }

    // ---- update

    @Test
    void givenAToken_whenPatched_then200WithTheFullUpdatedRecord() {
        // given
        Map<String, Object> token = created(token("Greeting", "custom", "x"));
        String id = (String) token.get("_id");
        // when
        Map<String, Object> updated = patch(ADMIN_KEY, projectId, id, Map.of("label", "Welcome", "type", "answer"), 200);
        // then
        assertThat(updated).containsEntry("_id", id).containsEntry("label", "Welcome").containsEntry("type", "answer")
                .containsEntry("script", "x").containsEntry("referenceId", token.get("referenceId"))
                .containsEntry("createdAt", token.get("createdAt"));
        // An empty PATCH changes nothing and answers the current record.
        assertThat(patch(ADMIN_KEY, projectId, id, Map.of(), 200)).isEqualTo(updated);
        // The old label is free again, the new one is taken.
        created(token("greeting", "custom", "y"));
        patch(ADMIN_KEY, projectId, (String) created(token("Other", "custom", "z")).get("_id"),
                Map.of("label", "WELCOME"), 409);
    }

    @Test
    void givenAToken_whenPatchedWithAnEventPosition_thenTheHeaderIsSent() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        // when / then
        http.patch().uri("/v2.0/projects/{p}/snippets/{t}", projectId, id).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("script", "y")).exchange()
                .expectStatus().isOk().expectHeader().exists("X-Event-Position")
                .expectHeader().contentType(MediaType.APPLICATION_JSON);
    }

    @Test
    void givenAnInvalidPatch_whenSent_then400NamingEveryField() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("label", null);
        body.put("type", "Custom");
        body.put("script", "");
        body.put("referenceId", "mine");
        // when
        Map<String, Object> problem = patch(ADMIN_KEY, projectId, id, body, 400);
        // then
        assertThat(details(problem)).containsOnlyKeys("label", "type", "script", "referenceId");
        assertThat(eventCount()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"First Name", "Last Name", "E-Mail", "Input Text", "Context", "Flow Output"})
    void givenADefaultToken_whenPatchedOrDeleted_then409BecauseItIsBuiltIn(String label) {
        // given
        String id = DefaultTokens.idFor(projectId, label);
        // when / then
        assertThat((String) patch(ADMIN_KEY, projectId, id, Map.of("label", "Mine"), 409).get("detail"))
                .contains("default tokens are built in");
        delete(ADMIN_KEY, projectId, id).expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("default tokens are built in"));
    }

    @Test
    void givenAToken_whenRenamedToADefaultLabel_then409() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        // when / then
        patch(ADMIN_KEY, projectId, id, Map.of("label", "e-mail"), 409);
    }

    @Test
    void givenUnknownForeignOrMisplacedTokens_whenPatched_then404() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        String other = (String) createProject(ADMIN_KEY, "Other project", "en-US").get("_id");
        String stranger = otherOrganisation();
        String strangersProject = (String) createProject(stranger, "Strange", "en-US").get("_id");
        // when / then
        patch(ADMIN_KEY, projectId, Ids.newId(), Map.of("label", "x"), 404);
        patch(ADMIN_KEY, other, id, Map.of("label", "x"), 404);
        patch(stranger, projectId, id, Map.of("label", "x"), 404);
        patch(stranger, strangersProject, id, Map.of("label", "x"), 404);
        patch(stranger, strangersProject, DefaultTokens.idFor(projectId, "First Name"), Map.of("label", "x"), 404);
        assertThat(details(patch(ADMIN_KEY, projectId, "short", Map.of("label", "x"), 400))).containsKey("snippetId");
        assertThat(details(patch(ADMIN_KEY, "SHORT", id, Map.of("label", "x"), 400))).containsKey("projectId");
    }

    @Test
    void givenWrongContentTypeOrAccept_whenPatching_then415Or406() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        // when / then
        http.patch().uri("/v2.0/projects/{p}/snippets/{t}", projectId, id).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).bodyValue("label=x").exchange()
                .expectStatus().isEqualTo(415);
        http.patch().uri("/v2.0/projects/{p}/snippets/{t}", projectId, id).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.IMAGE_GIF).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("label", "y"))
                .exchange().expectStatus().isEqualTo(406);
    }

    // ---- delete

    @Test
    void givenAToken_whenDeleted_then204AndThen404AndItsLabelIsFree() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        // when / then
        delete(ADMIN_KEY, projectId, id).expectStatus().isNoContent().expectHeader().exists("X-Event-Position");
        delete(ADMIN_KEY, projectId, id).expectStatus().isNotFound();
        patch(ADMIN_KEY, projectId, id, Map.of("label", "x"), 404);
        created(token("GREETING", "custom", "x"));
    }

    @Test
    void givenForeignOrMisplacedTokens_whenDeleted_then404AndNothingIsStored() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        String other = (String) createProject(ADMIN_KEY, "Other project", "en-US").get("_id");
        String stranger = otherOrganisation();
        long before = eventCount();
        // when / then
        delete(stranger, projectId, id).expectStatus().isNotFound();
        delete(ADMIN_KEY, other, id).expectStatus().isNotFound();
        delete(ADMIN_KEY, projectId, Ids.newId()).expectStatus().isNotFound();
        delete(ADMIN_KEY, projectId, "x").expectStatus().isBadRequest().expectBody().jsonPath("$.details.snippetId").exists();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenADeletedProject_whenItsTokensAreChanged_then404() {
        // given
        String id = (String) created(token("Greeting", "custom", "x")).get("_id");
        http.delete().uri("/v2.0/projects/{p}", projectId).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent();
        // when / then
        patch(ADMIN_KEY, projectId, id, Map.of("label", "x"), 404);
        delete(ADMIN_KEY, projectId, id).expectStatus().isNotFound();
        post(ADMIN_KEY, projectId, token("New", "custom", "x")).expectStatus().isNotFound();
        assertThat(jdbc.queryForList("SELECT token_id FROM cmd_token_lookup WHERE project_id = ?", String.class,
                projectId)).isEmpty();
    }

    @Test
    void givenTwoConcurrentCreatesOfOneLabel_whenBothArrive_thenExactlyOneWins() throws Exception {
        // given
        List<java.util.concurrent.CompletableFuture<Integer>> attempts = new java.util.ArrayList<>();
        // when
        for (int i = 0; i < 4; i++) {
            String script = "s" + i;
            attempts.add(java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    post(ADMIN_KEY, projectId, token("Race", "custom", script)).returnResult(String.class)
                            .getStatus().value()));
        }
        // then
        List<Integer> statuses = new java.util.ArrayList<>();
        for (var attempt : attempts) {
            statuses.add(attempt.get());
        }
        assertThat(statuses).containsOnly(201, 409).containsOnlyOnce(201);
    }
}
