package ai.convo.command.api;

import ai.convo.contract.common.Ids;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Helpers of the flow and state API tests: flows, states and intents (as rows of the intents' lookup). */
abstract class FlowApiSupport extends ApiTestBase {

    @SuppressWarnings("unchecked")
    Map<String, Object> createFlow(String apiKey, String projectId, String name) {
        return http.post().uri("/v2.0/flows")
                .header("X-API-Key", apiKey)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", name))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    /** A project of the admin's organisation with one flow; answers the flow. */
    Map<String, Object> newFlow(String name) {
        String projectId = (String) createProject(ADMIN_KEY, "Project of " + name, "en-US").get("_id");
        return createFlow(ADMIN_KEY, projectId, name);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> createState(String apiKey, String flowId, Map<String, Object> body) {
        return http.post().uri("/v2.0/flows/{flowId}/states", flowId)
                .header("X-API-Key", apiKey)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    /** Stands for an intent of the flow, as the intents feature's lookup would hold it. */
    String intentOf(String flowId, String name) {
        String intentId = Ids.newId();
        jdbc.update("INSERT INTO cmd_intent_lookup (intent_id, flow_id, organisation_id, name) "
                        + "SELECT ?, flow_id, organisation_id, ? FROM cmd_flow_lookup WHERE flow_id = ?",
                intentId, name, flowId);
        return intentId;
    }

    WebTestClient.ResponseSpec send(String method, String uri, String apiKey, Object body) {
        WebTestClient.RequestBodySpec request = http.method(org.springframework.http.HttpMethod.valueOf(method)).uri(uri)
                .header("X-API-Key", apiKey);
        if (body == null) {
            return request.exchange();
        }
        return request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> json(WebTestClient.ResponseSpec response, int status) {
        return response.expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    long eventsOfType(String simpleName) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = ?", Long.class,
                simpleName.contains(".") ? simpleName : "ai.convo.contract.state." + simpleName);
        return count == null ? 0 : count;
    }
}
