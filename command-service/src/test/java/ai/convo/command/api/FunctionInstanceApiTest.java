package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Actor;
import ai.convo.contract.function.FunctionId;
import ai.convo.contract.function.FunctionInstanceId;
import ai.convo.contract.function.StartFunctionInstanceCommand;
import ai.convo.contract.function.TriggerFunctionCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.command.task.TaskSubmitter;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Function instances over real HTTP: trigger, the run in the sandbox on the task runner, stop; the outcome is read from
 * the instance's events (the read side is the query service's).
 */
class FunctionInstanceApiTest extends ApiTestBase {

    static HttpServer callback;
    static final List<String> received = Collections.synchronizedList(new ArrayList<>());

    @Autowired
    CommandGateway gateway;
    @Autowired
    TaskSubmitter tasks;
    @Autowired
    org.springframework.transaction.PlatformTransactionManager transactions;

    private String projectId;

    @BeforeAll
    static void startCallback() throws IOException {
        callback = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        callback.createContext("/report", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        callback.createContext("/slow", exchange -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        callback.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        callback.start();
    }

    @AfterAll
    static void stopCallback() {
        callback.stop(0);
    }

    @BeforeEach
    void project() {
        projectId = (String) createProject(ADMIN_KEY, "Function runs " + UUID.randomUUID(), "en-US").get("_id");
    }

    private String callbackUrl(String path) {
        return "http://127.0.0.1:" + callback.getAddress().getPort() + path;
    }

    @SuppressWarnings("unchecked")
    private String function(String key, String project, String code, boolean disabled) {
        Map<String, Object> body = http.post().uri("/v2.0/functions").header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", project, "name", "f " + UUID.randomUUID(), "code", code,
                        "isDisabled", disabled))
                .exchange().expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody();
        return (String) body.get("_id");
    }

    private WebTestClient.ResponseSpec trigger(String key, String functionId, Object parameters) {
        return http.post().uri("/v2.0/functions/{f}/trigger", functionId).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(parameters).exchange();
    }

    @SuppressWarnings("unchecked")
    private String triggered(String key, String functionId, Object parameters) {
        Map<String, Object> body = trigger(key, functionId, parameters).expectStatus().isAccepted()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body.keySet()).containsExactly("functionInstanceId");
        return (String) body.get("functionInstanceId");
    }

    private WebTestClient.ResponseSpec stop(String key, String functionId, String instanceId) {
        return http.post().uri("/v2.0/functions/{f}/instances/{i}/stop", functionId, instanceId)
                .header("X-API-Key", key).exchange();
    }

    /** The instance's events, oldest first: simple type name and JSON payload. */
    private List<String[]> events(String instanceId) {
        return jdbc.query("SELECT payload_type, convert_from(payload, 'UTF8') AS json FROM domain_event_entry "
                        + "WHERE aggregate_identifier = ? ORDER BY sequence_number",
                (rs, i) -> new String[] {rs.getString(1).substring(rs.getString(1).lastIndexOf('.') + 1),
                        rs.getString(2)}, instanceId);
    }

    private List<String> types(String instanceId) {
        return events(instanceId).stream().map(e -> e[0]).toList();
    }

    private String[] ended(String instanceId) {
        eventually(() -> types(instanceId).stream().anyMatch(t -> t.equals("FunctionInstanceFinishedEvent")
                || t.equals("FunctionInstanceFailedEvent") || t.equals("FunctionInstanceStoppedEvent")),
                "instance " + instanceId + " to end");
        List<String[]> all = events(instanceId);
        return all.get(all.size() - 1);
    }

    private static void eventually(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void a_typescript_function_that_calls_back_and_logs_ends_done_with_its_logs() {
        // given: a function in the vendor's TypeScript form that reports to a loopback server (allowed by setting)
        String functionId = function(ADMIN_KEY, projectId, """
                export default async ({ parameters, api }: IFunctionExecutionArguments) => {
                  const answer = await api.httpRequest({ method: 'POST', url: '%s', body: { user: parameters.userId } });
                  api.log('reported', parameters.userId, answer.json.ok);
                };
                """.formatted(callbackUrl("/report")), false);

        // when: it is triggered with parameters as the body
        String instanceId = triggered(ADMIN_KEY, functionId, Map.of("userId", "u-42"));

        // then: triggered, started, logged, finished — and the server got the call
        String[] last = ended(instanceId);
        assertThat(types(instanceId)).containsExactly("FunctionInstanceTriggeredEvent", "FunctionInstanceStartedEvent",
                "FunctionInstanceLoggedEvent", "FunctionInstanceFinishedEvent");
        assertThat(last[0]).isEqualTo("FunctionInstanceFinishedEvent");
        assertThat(events(instanceId).get(2)[1]).contains("reported u-42 true");
        assertThat(events(instanceId).get(0)[1]).contains("\"trigger\":\"manual\"").contains("\"userId\":\"u-42\"");
        assertThat(received).contains("{\"user\":\"u-42\"}");
    }

    @Test
    void a_disabled_function_cannot_be_triggered_and_nothing_is_stored() {
        // given
        String functionId = function(ADMIN_KEY, projectId, "export default () => 1;", true);
        long before = eventCount();

        // when / then
        trigger(ADMIN_KEY, functionId, Map.of()).expectStatus().isEqualTo(409)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("is disabled"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void another_organisations_function_and_instance_answer_as_missing() {
        // given
        String functionId = function(ADMIN_KEY, projectId, "export default () => 1;", false);
        String instanceId = triggered(ADMIN_KEY, functionId, Map.of());
        String other = otherOrganisationKey("fn-" + UUID.randomUUID() + "@example.com");

        // when / then
        trigger(other, functionId, Map.of()).expectStatus().isNotFound();
        stop(other, functionId, instanceId).expectStatus().isNotFound();
    }

    @Test
    void parameters_that_are_not_an_object_or_too_large_are_refused() {
        String functionId = function(ADMIN_KEY, projectId, "export default () => 1;", false);
        trigger(ADMIN_KEY, functionId, List.of(1, 2)).expectStatus().isBadRequest();
        trigger(ADMIN_KEY, functionId, Map.of("big", "x".repeat(70_000))).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("at most 65536"));
    }

    @Test
    void hostile_programs_end_error_with_a_clear_reason_and_the_service_stays_healthy() {
        Map<String, String> hostile = Map.of(
                "export default () => { while (true) {} };", "statements (the CPU limit of an instance)",
                "export default () => { const k = []; for (;;) k.push(new Array(100000).fill(1)); };", "memory limit",
                "export default () => { const r = () => r() + 1; r(); };", "RangeError: Maximum call stack size exceeded",
                "export default () => Java.type('java.lang.Runtime').getRuntime().exec('id');", "ReferenceError: Java is not defined",
                "export default () => require('child_process');", "ReferenceError: require is not defined",
                "export default () => process.env;", "ReferenceError: process is not defined",
                "export default () => load('/etc/passwd');", "ReferenceError: load is not defined",
                "export default async ({ api }) => api.httpRequest('http://10.0.0.1/admin');", "only public addresses",
                "export default async () => {\n  let x: = 1 }", "SyntaxError at line 2, column 10");
        Map<String, String> instances = new java.util.LinkedHashMap<>();
        hostile.forEach((code, reason) -> instances.put(triggered(ADMIN_KEY, function(ADMIN_KEY, projectId, code, false),
                Map.of()), reason));

        instances.forEach((instanceId, reason) -> {
            String[] last = ended(instanceId);
            assertThat(last[0]).as(reason).isEqualTo("FunctionInstanceFailedEvent");
            assertThat(last[1]).contains(reason);
        });

        // and then: a plain function still runs
        String ok = triggered(ADMIN_KEY, function(ADMIN_KEY, projectId, "export default () => 1;", false), Map.of());
        assertThat(ended(ok)[0]).isEqualTo("FunctionInstanceFinishedEvent");
    }

    @Test
    void another_organisations_run_goes_before_the_rest_of_a_hogs_queue() {
        // given: one organisation queues more endless loops than there are task threads
        String hog = function(ADMIN_KEY, projectId, "export default () => { while (true) {} };", false);
        List<String> hogs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            hogs.add(triggered(ADMIN_KEY, hog, Map.of()));
        }
        // when: another organisation triggers a trivial function
        String other = otherOrganisationKey("fair-" + UUID.randomUUID() + "@example.com");
        @SuppressWarnings("unchecked")
        String otherProject = (String) http.post().uri("/v2.0/projects").header("X-API-Key", other)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Other", "locale", "en-US"))
                .exchange().expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody().get("_id");
        String quick = triggered(other, function(other, otherProject, "export default () => 1;", false), Map.of());

        // then: it ends done, and it started before the hogs queued behind the running ones
        assertThat(ended(quick)[0]).isEqualTo("FunctionInstanceFinishedEvent");
        hogs.forEach(this::ended);
        long quickStart = startedAt(quick);
        assertThat(hogs.stream().filter(h -> startedAt(h) > quickStart).count()).isGreaterThanOrEqualTo(1);
        hogs.forEach(h -> assertThat(ended(h)[1]).contains("CPU limit"));
    }

    private long startedAt(String instanceId) {
        return jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%FunctionInstanceStartedEvent'", Long.class, instanceId);
    }

    @Test
    void stop_ends_a_running_instance_error_and_is_idempotent() {
        // given: a function that keeps calling a slow server
        String functionId = function(ADMIN_KEY, projectId, """
                export default async ({ api }) => { for (let i = 0; i < 100; i++) await api.httpRequest('%s'); };
                """.formatted(callbackUrl("/slow")), false);
        String instanceId = triggered(ADMIN_KEY, functionId, Map.of());
        eventually(() -> types(instanceId).contains("FunctionInstanceStartedEvent"), "the run to start");

        // when
        stop(ADMIN_KEY, functionId, instanceId).expectStatus().isOk().expectBody().json("{}");
        stop(ADMIN_KEY, functionId, instanceId).expectStatus().isOk().expectBody().json("{}");

        // then: stopped once; the run was cancelled and recorded nothing more
        String taskId = jdbc.queryForObject("SELECT task_id FROM task_run WHERE parameters::text LIKE ?", String.class,
                "%" + instanceId + "%");
        eventually(() -> "cancelled".equals(jdbc.queryForObject("SELECT status FROM task_run WHERE task_id = ?",
                String.class, taskId)), "the run's task to be cancelled");
        assertThat(types(instanceId)).containsExactly("FunctionInstanceTriggeredEvent", "FunctionInstanceStartedEvent",
                "FunctionInstanceStoppedEvent");
        // and stopping an instance that has ended answers the same and changes nothing
        String done = triggered(ADMIN_KEY, function(ADMIN_KEY, projectId, "export default () => 1;", false), Map.of());
        ended(done);
        List<String> before = types(done);
        stop(ADMIN_KEY, functionOf(done), done).expectStatus().isOk().expectBody().json("{}");
        assertThat(types(done)).isEqualTo(before);
    }

    private String functionOf(String instanceId) {
        String json = events(instanceId).get(0)[1];
        int at = json.indexOf("\"functionId\":\"") + 14;
        return json.substring(at, json.indexOf('"', at));
    }

    @Test
    void an_instance_whose_replica_died_mid_run_ends_error_and_is_not_run_twice() {
        // given: an instance that a replica started and then died with (its task is claimable again)
        String functionId = function(ADMIN_KEY, projectId, """
                export default async ({ api }) => { await api.httpRequest({ method: 'POST', url: '%s', body: 'twice?' }); };
                """.formatted(callbackUrl("/report")), false);
        Actor admin = new Actor(adminUserId(), jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE id = ?",
                String.class, adminUserId()), Role.SYSTEM_ADMIN);
        FunctionInstanceId instance = FunctionInstanceId.generate();
        TaskId taskId = TaskId.generate();
        gateway.sendAndWait(new TriggerFunctionCommand(instance, FunctionId.of(functionId), ProjectId.of(projectId), admin,
                "manual", Map.of(), "export default async ({ api }) => { await api.httpRequest({ method: 'POST', url: '"
                + callbackUrl("/report") + "', body: 'twice?' }); };", taskId, 1L));
        gateway.sendAndWait(new StartFunctionInstanceCommand(instance, "a-replica-that-died", 1L));

        // when: the run's task is picked up again
        tasks.submit(taskId, "runFunction", ProjectId.of(projectId), Map.of("functionInstanceId", instance.value(),
                "functionId", functionId), admin);

        // then
        String[] last = ended(instance.value());
        assertThat(last[0]).isEqualTo("FunctionInstanceFailedEvent");
        assertThat(last[1]).contains("stopped before the run ended");
        assertThat(received).doesNotContain("twice?");
    }

    @Test
    void an_instance_whose_run_was_given_up_after_dying_runners_ends_error() {
        // given: an active instance whose task's runners died as many times as a task may start
        String functionId = function(ADMIN_KEY, projectId, "export default () => 1;", false);
        Actor admin = new Actor(adminUserId(), jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE id = ?",
                String.class, adminUserId()), Role.SYSTEM_ADMIN);
        FunctionInstanceId instance = FunctionInstanceId.generate();
        TaskId taskId = TaskId.generate();
        new org.springframework.transaction.support.TransactionTemplate(transactions).executeWithoutResult(status -> {
            gateway.sendAndWait(new TriggerFunctionCommand(instance, FunctionId.of(functionId), ProjectId.of(projectId),
                    admin, "manual", Map.of(), "export default () => 1;", taskId, 1L));
            gateway.sendAndWait(new StartFunctionInstanceCommand(instance, "dead-1", 1L));
            gateway.sendAndWait(new ai.convo.contract.task.CreateTaskCommand(taskId, ProjectId.of(projectId), admin,
                    "runFunction", Map.of("functionInstanceId", instance.value(), "functionId", functionId), 1L));
            for (int attempt = 1; attempt <= 3; attempt++) {
                gateway.sendAndWait(new ai.convo.contract.task.StartTaskCommand(taskId, "dead-" + attempt, attempt, 1L));
            }
        });

        // when: a live runner claims the task and gives it up
        // then: the instance is not left active
        String[] last = ended(instance.value());
        assertThat(last[0]).isEqualTo("FunctionInstanceFailedEvent");
        assertThat(last[1]).contains("stopped before the run ended");
    }
}
