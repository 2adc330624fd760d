package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionInstanceFailedEvent;
import ai.convo.contract.function.FunctionInstanceFinishedEvent;
import ai.convo.contract.function.FunctionInstanceLoggedEvent;
import ai.convo.contract.function.FunctionInstanceStartedEvent;
import ai.convo.contract.function.FunctionInstanceStoppedEvent;
import ai.convo.contract.function.FunctionInstanceTriggeredEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * The client's indexFunctionInstances and readFunctionInstance over real HTTP, from the instances' events: shapes,
 * statuses, list mechanics, tenancy, history and the event log.
 */
class FunctionInstanceListTest extends QueryTestBase {

    private Caller caller;
    private Project project;
    private String functionId;
    private String done;
    private String failed;
    private String stopped;
    private String queued;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Function runs", 1000);
        functionId = Ids.newId();
        append(functionId, new FunctionCreatedEvent(functionId, project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), "f", "export default () => 1;", false, caller.userId(), 1000));
        done = triggered(1001, Map.of("userId", "u-1"));
        append(done, new FunctionInstanceStartedEvent(done, functionId, project.id(), caller.organisationId(), "r", 1002));
        append(done, new FunctionInstanceLoggedEvent(done, functionId, project.id(), caller.organisationId(),
                List.of("hello", "world"), 1003));
        append(done, new FunctionInstanceFinishedEvent(done, functionId, project.id(), caller.organisationId(), 1004));
        failed = triggered(1005, Map.of());
        append(failed, new FunctionInstanceStartedEvent(failed, functionId, project.id(), caller.organisationId(), "r", 1006));
        append(failed, new FunctionInstanceFailedEvent(failed, functionId, project.id(), caller.organisationId(),
                "SyntaxError at line 2, column 10: Unexpected token", 1007));
        stopped = triggered(1008, Map.of());
        append(stopped, new FunctionInstanceStoppedEvent(stopped, functionId, project.id(), caller.organisationId(),
                caller.userId(), 1009));
        queued = triggered(1010, Map.of("sessionId", "s"));
        position = append(queued, new FunctionInstanceTriggeredEvent(Ids.newId(), Ids.newId(), project.id(),
                caller.organisationId(), "manual", Map.of(), "", Ids.newId(), caller.userId(), 1011));
    }

    private String triggered(long at, Map<String, Object> parameters) {
        String id = Ids.newId();
        position = append(id, new FunctionInstanceTriggeredEvent(id, functionId, project.id(), caller.organisationId(),
                "manual", parameters, "export default () => 1;", Ids.newId(), caller.userId(), at));
        return id;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(Caller who, String path, int status) {
        return http.get().uri(path).header("X-API-Key", who.apiKey())
                .header("X-Event-Position", Long.toString(position)).accept(MediaType.APPLICATION_JSON)
                .exchange().expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    @Test
    void the_list_has_the_clients_item_shape_newest_last_by_default_and_pages() {
        // when
        Map<String, Object> page = get(caller, "/v2.0/functions/" + functionId + "/instances?limit=100", 200);

        // then: only this function's instances, in creation order, each with the client's fields
        assertThat(ids(page)).containsExactly(done, failed, stopped, queued);
        assertThat(items(page).get(0).keySet()).containsExactly("_id", "trigger", "status", "error", "createdAt",
                "finishedAt");
        assertThat(items(page)).extracting(i -> i.get("status")).containsExactly("done", "error", "error", "queued");
        assertThat(items(page).get(1)).containsEntry("error", "SyntaxError at line 2, column 10: Unexpected token")
                .containsEntry("finishedAt", 1007);
        assertThat(items(page).get(2)).containsEntry("error", "Stopped by a user.");
        assertThat(items(page).get(3)).containsEntry("finishedAt", null).containsEntry("trigger", "manual");

        // and: the usual mechanics (sort, limit, skip)
        Map<String, Object> first = get(caller, "/v2.0/functions/" + functionId + "/instances?limit=2&sort=createdAt:desc", 200);
        assertThat(ids(first)).containsExactly(queued, stopped);
        assertThat(ids(get(caller, "/v2.0/functions/" + functionId + "/instances?limit=2&sort=createdAt:desc&skip=2", 200)))
                .containsExactly(failed, done);
    }

    @Test
    void a_read_adds_function_parameters_and_logs() {
        Map<String, Object> read = get(caller, "/v2.0/functions/" + functionId + "/instances/" + done, 200);
        assertThat(read.keySet()).containsExactly("_id", "trigger", "status", "error", "createdAt", "finishedAt",
                "functionId", "parameters", "logs");
        assertThat(read).containsEntry("functionId", functionId).containsEntry("status", "done")
                .containsEntry("parameters", Map.of("userId", "u-1")).containsEntry("logs", List.of("hello", "world"))
                .containsEntry("createdAt", 1001).containsEntry("finishedAt", 1004);
    }

    @Test
    void other_organisations_and_other_functions_see_nothing() {
        Caller other = newOrganisation();
        get(other, "/v2.0/functions/" + functionId + "/instances", 404);
        get(other, "/v2.0/functions/" + functionId + "/instances/" + done, 404);
        String otherFunction = Ids.newId();
        append(otherFunction, new FunctionCreatedEvent(otherFunction, project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), "g", "", false, caller.userId(), 1000));
        position = append(Ids.newId(), new FunctionCreatedEvent(Ids.newId(), project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), "h", "", false, caller.userId(), 1000));
        get(caller, "/v2.0/functions/" + otherFunction + "/instances/" + done, 404);
    }

    @Test
    void an_instance_has_a_history_of_its_events() {
        Map<String, Object> history = get(caller, "/v2.0/functions/" + functionId + "/instances/" + done + "/history", 200);
        assertThat(items(history)).extracting(e -> e.get("type")).contains("FunctionInstanceTriggered",
                "FunctionInstanceStarted", "FunctionInstanceLogged", "FunctionInstanceFinished");
    }
}
