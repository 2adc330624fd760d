package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import java.util.Map;
import java.util.UUID;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Helpers of the intent and sentence API tests. A flow is created the way the flows feature does it: its
 * FlowCreatedEvent is published through Axon's event store, so the write-side flow lookup learns of it in
 * the same transaction (the flows feature's own routes are not needed).
 */
abstract class IntentApiSupport extends ApiTestBase {

    @Autowired
    EventStore eventStore;

    /** A project with its primary locale, and one flow in it. */
    record Flow(String id, String projectId, String primaryLocaleId, String organisationId) {
    }

    Flow newFlow(String apiKey, String userId) {
        Map<String, Object> project = createProject(apiKey, "Project " + Ids.newId(), "en-US");
        String organisationId = jdbc.queryForObject("SELECT organisation_id FROM cmd_project_lookup WHERE project_id = ?",
                String.class, project.get("_id"));
        String flowId = Ids.newId();
        eventStore.publish(new GenericDomainEventMessage<>("FlowAggregate", flowId, 0,
                new FlowCreatedEvent(flowId, (String) project.get("_id"), organisationId, UUID.randomUUID().toString(),
                        "Main", "", userId, 1_700_000_000L)));
        return new Flow(flowId, (String) project.get("_id"), (String) project.get("primaryLocaleReference"),
                organisationId);
    }

    Flow newFlow() {
        return newFlow(ADMIN_KEY, adminUserId());
    }

    /** The flow is deleted, as the flows feature would do it. */
    void deleteFlow(Flow flow) {
        eventStore.publish(new GenericDomainEventMessage<>("FlowAggregate", flow.id(), 1,
                new FlowDeletedEvent(flow.id(), flow.projectId(), flow.organisationId(), adminUserId(), 1_700_000_001L)));
    }

    String intentsOf(Flow flow) {
        return "/v2.0/flows/" + flow.id() + "/intents";
    }

    WebTestClient.ResponseSpec send(HttpMethod method, String uri, String apiKey, Object body) {
        WebTestClient.RequestBodySpec request = http.method(method).uri(uri).header("X-API-Key", apiKey);
        if (body == null) {
            return request.exchange();
        }
        return request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> json(WebTestClient.ResponseSpec response, int status) {
        return response.expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    Map<String, Object> createIntent(Flow flow, Map<String, Object> body) {
        return json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY, body), 201);
    }

    String intentNamed(Flow flow, String name) {
        return (String) createIntent(flow, Map.of("name", name)).get("_id");
    }

    String childOf(Flow flow, String parentId, String name) {
        return (String) createIntent(flow, Map.of("name", name, "parentIntentId", parentId)).get("_id");
    }

    Map<String, Object> patchIntent(Flow flow, String intentId, Object body, int status) {
        return json(send(HttpMethod.PATCH, intentsOf(flow) + "/" + intentId, ADMIN_KEY, body), status);
    }

    Map<String, Object> createLocale(String projectId, String name, String language, String fallback) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("projectId", projectId, "name", name,
                "nluLanguage", language));
        if (fallback != null) {
            body.put("fallbackLocaleReference", fallback);
        }
        return createLocale(ADMIN_KEY, body);
    }

    Map<String, Object> addSentence(Flow flow, String intentId, String localeId, String text) {
        return json(send(HttpMethod.POST, intentsOf(flow) + "/" + intentId + "/sentences", ADMIN_KEY,
                Map.of("text", text, "localeId", localeId)), 201);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> details(Map<String, Object> problem) {
        assertThat(problem).containsKey("details");
        return (Map<String, Object>) problem.get("details");
    }

    long eventsOfType(String simpleName) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = ?", Long.class,
                "ai.convo.contract.intent." + simpleName);
        return count == null ? 0 : count;
    }
}
