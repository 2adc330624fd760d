package ai.convo.query.api;


import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.MediaType;

/** Appends flow and state events as the command service would, and reads lists back. */
abstract class FlowQuerySupport extends QueryTestBase {

    long flow(Caller caller, String projectId, String flowId, String name, String description, long at) {
        return append(flowId, new FlowCreatedEvent(flowId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), name, description, caller.userId(), at));
    }

    long state(Caller caller, String projectId, String flowId, String stateId, String name, String type,
               boolean isDefault, List<String> intentIds, String createdBy, long at) {
        return append(flowId, new StateCreatedEvent(flowId, projectId, caller.organisationId(), stateId,
                UUID.randomUUID().toString(), name, type, isDefault, intentIds, createdBy, at));
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> page(String uri, Caller caller, long position) {
        return http.get().uri(uri)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .accept(MediaType.APPLICATION_JSON)
                .exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody(Map.class).returnResult().getResponseBody();
    }





    /** Walks a list with next cursors from {@code first} and answers every id seen. */
    List<Object> walk(String base, String firstQuery, int limit, Caller caller, long position) {
        return ListPages.walk(query -> page(base + query, caller, position), firstQuery, limit);
    }
}
