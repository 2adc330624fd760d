package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** The flow writes over real HTTP: POST /v2.0/flows, PATCH and DELETE /v2.0/flows/{flowId}. */
class FlowApiTest extends FlowApiSupport {

    @Test
    void givenAProject_whenCreatingAFlow_then201WithTheRecordLocationAndEventPosition() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "Flows", "en-US").get("_id");
        // when
        var result = http.post().uri("/v2.0/flows").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "Main", "description", "The main flow"))
                .exchange()
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().exists("X-Event-Position")
                .expectHeader().doesNotExist("Deprecation")
                .expectBody(Map.class).returnResult();
        @SuppressWarnings("unchecked")
        Map<String, Object> flow = result.getResponseBody();
        assertThat(flow.keySet()).containsExactly("_id", "name", "description", "referenceId", "projectReference",
                "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat((String) flow.get("_id")).matches("^[a-z0-9]{24}$");
        assertThat(flow).containsEntry("name", "Main").containsEntry("description", "The main flow")
                .containsEntry("projectReference", projectId).containsEntry("createdBy", adminUserId())
                .containsEntry("lastChangedBy", adminUserId());
        assertThat((String) flow.get("referenceId")).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(flow.get("createdAt")).isEqualTo(flow.get("lastChanged"));
        assertThat(result.getResponseHeaders().getLocation()).hasToString("/new/v2.0/flows/" + flow.get("_id"));
    }

    @Test
    void givenNoDescription_whenCreatingAFlow_thenTheDescriptionIsEmpty() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "No description", "en-US").get("_id");
        // when
        Map<String, Object> flow = createFlow(ADMIN_KEY, projectId, "Bare");
        // then
        assertThat(flow.get("description")).isEqualTo("");
    }

    @Test
    void givenAnXmlAccept_whenCreatingAFlow_thenTheRecordIsXml() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "Xml flows", "en-US").get("_id");
        // when / then
        String xml = http.post().uri("/v2.0/flows").header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_XML)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "X"))
                .exchange().expectStatus().isCreated().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<flow><_id>").contains("<name>X</name>", "<projectReference>" + projectId);
        http.post().uri("/v2.0/flows").header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_PDF)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "X"))
                .exchange().expectStatus().isEqualTo(406);
    }

    @Test
    void givenAnInvalidBody_whenCreatingAFlow_then400NamingEveryBadFieldAndNothingIsWritten() {
        // given
        long before = eventCount();
        // when
        Map<String, Object> problem = json(send("POST", "/v2.0/flows", ADMIN_KEY,
                Map.of("projectId", "short", "name", 7, "description", "x".repeat(2001), "colour", "red")), 400);
        // then
        assertThat(problem.get("code")).isEqualTo("1000");
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) problem.get("details");
        assertThat(details).containsOnlyKeys("projectId", "name", "description", "colour");
        assertThat((String) details.get("colour")).contains("description, name, projectId");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenMissingFields_whenCreatingAFlow_then400NamingThem() {
        // when
        Map<String, Object> problem = json(send("POST", "/v2.0/flows", ADMIN_KEY, Map.of("name", " ")), 400);
        // then
        assertThat(problem.get("details")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsOnlyKeys("projectId", "name");
        http.post().uri("/v2.0/flows").header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("body is required"));
    }

    @Test
    void givenAnUnknownOrForeignOrDeletedProject_whenCreatingAFlow_then404() {
        // given
        String mine = (String) createProject(ADMIN_KEY, "Tenancy flows", "en-US").get("_id");
        String deleted = (String) createProject(ADMIN_KEY, "Deleted flows", "en-US").get("_id");
        send("DELETE", "/v2.0/projects/" + deleted, ADMIN_KEY, null).expectStatus().isNoContent();
        String otherKey = otherOrganisationKey("flow-thief@example.com");
        long before = eventCount();
        // when / then
        assertThat((String) json(send("POST", "/v2.0/flows", ADMIN_KEY,
                Map.of("projectId", "bbbbbbbbbbbbbbbbbbbbbbbb", "name", "X")), 404).get("detail"))
                .isEqualTo("Project bbbbbbbbbbbbbbbbbbbbbbbb does not exist.");
        json(send("POST", "/v2.0/flows", otherKey, Map.of("projectId", mine, "name", "X")), 404);
        json(send("POST", "/v2.0/flows", ADMIN_KEY, Map.of("projectId", deleted, "name", "X")), 404);
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAFlow_whenPatched_then200WithTheFullUpdatedRecord() {
        // given
        Map<String, Object> flow = newFlow("Patch me");
        // when
        Map<String, Object> renamed = json(send("PATCH", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY,
                Map.of("name", "Patched", "description", "now described")), 200);
        // then
        Map<String, Object> expected = new HashMap<>(flow);
        expected.put("name", "Patched");
        expected.put("description", "now described");
        expected.put("lastChanged", renamed.get("lastChanged"));
        assertThat(renamed).isEqualTo(expected);
        // and an empty PATCH changes nothing and answers the current record, as JSON by default
        send("PATCH", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, Map.of()).expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().exists("X-Event-Position")
                .expectHeader().doesNotExist("Deprecation")
                .expectBody(Map.class).isEqualTo(renamed);
    }

    @Test
    void givenAFlow_whenPatchedWithBadFields_then400NamingEachAndNothingChanges() {
        // given
        Map<String, Object> flow = newFlow("Bad patch");
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("name", "");
        body.put("description", null);
        body.put("projectId", flow.get("projectReference"));
        // when
        Map<String, Object> problem = json(send("PATCH", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, body), 400);
        // then
        assertThat(problem.get("details")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsOnlyKeys("name", "description", "projectId");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAnUnknownMalformedOrForeignFlow_whenPatchedOrDeleted_then404Or400() {
        // given
        Map<String, Object> flow = newFlow("Tenancy");
        String otherKey = otherOrganisationKey("flow-patcher@example.com");
        // when / then
        json(send("PATCH", "/v2.0/flows/aaaaaaaaaaaaaaaaaaaaaaaa", ADMIN_KEY, Map.of("name", "x")), 404);
        json(send("DELETE", "/v2.0/flows/aaaaaaaaaaaaaaaaaaaaaaaa", ADMIN_KEY, null), 404);
        assertThat((String) json(send("PATCH", "/v2.0/flows/NOT-AN-ID", ADMIN_KEY, Map.of("name", "x")), 400)
                .get("detail")).contains("flowId");
        assertThat(json(send("DELETE", "/v2.0/flows/NOT-AN-ID", ADMIN_KEY, null), 400).get("details"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP).containsKey("flowId");
        Map<String, Object> foreign = json(send("PATCH", "/v2.0/flows/" + flow.get("_id"), otherKey,
                Map.of("name", "stolen")), 404);
        assertThat(foreign.get("detail")).isEqualTo("Flow " + flow.get("_id") + " does not exist.");
        json(send("DELETE", "/v2.0/flows/" + flow.get("_id"), otherKey, null), 404);
        // still there, unchanged, for its owner
        assertThat(json(send("PATCH", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, Map.of()), 200).get("name"))
                .isEqualTo("Tenancy");
    }

    @Test
    void givenAFlow_whenDeleted_then204ThenItIsGone() {
        // given
        Map<String, Object> flow = newFlow("Temporary");
        // when
        send("DELETE", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, null)
                // then
                .expectStatus().isNoContent()
                .expectHeader().exists("X-Event-Position");
        json(send("DELETE", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, null), 404);
        json(send("PATCH", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, Map.of("name", "back")), 404);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_flow_lookup WHERE flow_id = ?", Integer.class,
                flow.get("_id"))).isZero();
    }

    @Test
    void givenAFlowWhoseProjectWasDeleted_whenPatched_then404() {
        // given
        Map<String, Object> flow = newFlow("Orphan");
        send("DELETE", "/v2.0/projects/" + flow.get("projectReference"), ADMIN_KEY, null).expectStatus().isNoContent();
        // when / then
        assertThat(json(send("PATCH", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, Map.of("name", "x")), 404)
                .get("detail")).isEqualTo("Flow " + flow.get("_id") + " does not exist.");
        json(send("DELETE", "/v2.0/flows/" + flow.get("_id"), ADMIN_KEY, null), 404);
    }

    @Test
    void givenNoCredentials_whenWritingFlows_then401WithoutDeprecationHeaders() {
        // when / then
        http.post().uri("/v2.0/flows").contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "x"))
                .exchange().expectStatus().isUnauthorized().expectHeader().doesNotExist("Deprecation");
        http.delete().uri("/v2.0/flows/aaaaaaaaaaaaaaaaaaaaaaaa").exchange().expectStatus().isUnauthorized();
    }
}
