package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.task.TaskSubmitter;
import ai.convo.command.task.TestWorks;
import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * Twenty identical writes on one resource at once (issue 37, finding 4): they resolve at once, one after another
 * (one success, the rest the answer the first one's outcome calls for), and another organisation's canary write
 * meanwhile answers within its normal latency, measured just before in the same test. Before the fix, twenty DELETEs
 * of one token held every pooled connection waiting for an aggregate lock that nobody would release: 503s after 30 s
 * and 504s after 60 s, for the other organisation too.
 * <p>
 * Each route is hit twice: a first burst on one resource warms the route up, the second, on another resource, is
 * the one timed (a cold JVM's first requests measure the JIT, not the locking).
 */
class ConcurrentWritesApiTest extends ApiTestBase {

    private static final int BURST = 20;
    /** The twenty resolve within this: about 1 s on a quiet machine, allowing for a busy one. */
    private static final long RESOLVED_MILLIS = 3_000;
    /** The canary's latency during a burst, as a multiple of its median latency before it. */
    private static final long CANARY_FACTOR = 10;
    /** The least baseline the factor applies to: a quiet moment's few milliseconds are no busy machine's normal. */
    private static final long CANARY_FLOOR_MILLIS = 20;
    private static final int CANARY_BASELINE = 7;
    private static final int CANARY_DURING = 3;
    /**
     * Pooled connections in use at most during a burst on one aggregate: its one running command, the canary and the
     * service's own pollers. Waiting for the aggregate's lock inside their transactions, the twenty took all ten.
     */
    private static final int CONNECTIONS = 5;

    @Autowired
    TaskSubmitter submitter;

    private ExecutorService clients;
    private String projectId;
    private String primaryLocaleId;
    private String canaryKey;

    @BeforeEach
    void setUp() {
        clients = Executors.newFixedThreadPool(BURST + 2);
        Map<String, Object> project = createProject(ADMIN_KEY, "Burst " + UUID.randomUUID(), "en-US");
        projectId = (String) project.get("_id");
        primaryLocaleId = (String) project.get("primaryLocaleReference");
        canaryKey = otherOrganisationKey("canary-" + UUID.randomUUID() + "@example.com");
    }

    @AfterEach
    void tearDown() {
        clients.shutdownNow();
    }

    // ---- the routes

    @Test
    void twentyDeletesOfOneTokenFindItGoneButOnce() {
        // given a token (and one to warm up on)
        // when twenty clients delete it at once
        // then one deletes it, nineteen find it gone
        burstTwice(this::newToken,
                tokenId -> status(HttpMethod.DELETE, "/v2.0/projects/" + projectId + "/snippets/" + tokenId, null),
                answers -> assertThat(statuses(answers)).containsOnly(204, 404).containsOnlyOnce(204));
    }

    @Test
    void twentyDeletesOfOneFlowFindItGoneButOnce() {
        // given a flow
        // when twenty clients delete it at once
        // then one deletes it, nineteen find it gone
        burstTwice(this::newFlow, flowId -> status(HttpMethod.DELETE, "/v2.0/flows/" + flowId, null),
                answers -> assertThat(statuses(answers)).containsOnly(204, 404).containsOnlyOnce(204));
    }

    @Test
    void twentyIdenticalPatchesOfOneLocaleAllAnswerTheSameRecord() {
        // given a locale of the project (its PATCHes are commands of the project's aggregate)
        // when twenty clients send the same PATCH at once
        // then each is decided on what the one before left: all 200 (a PATCH to the state it asks for changes nothing)
        burstTwice(this::newLocale,
                localeId -> status(HttpMethod.PATCH, "/v2.0/locales/" + localeId, Map.of("name", "Renamed " + localeId)),
                answers -> assertThat(statuses(answers)).containsOnly(200));
    }

    @Test
    void twentySentencesPostedIntoOneIntentAreAllStored() {
        // given an intent (as flow/intent)
        Supplier<String> intent = () -> {
            String flowId = newFlow();
            return flowId + "/intents/" + json(HttpMethod.POST, "/v2.0/flows/" + flowId + "/intents",
                    Map.of("name", "Greet"), 201).get("_id");
        };
        // when twenty clients post the same sentence into it at once
        // then all twenty are created, one after another
        burstTwice(intent, flowIntent -> status(HttpMethod.POST, "/v2.0/flows/" + flowIntent + "/sentences",
                        Map.of("text", "hello there", "localeId", primaryLocaleId)),
                answers -> assertThat(statuses(answers)).containsOnly(201));
    }

    @Test
    void twentyIdenticalPatchesOfOneSlotFillerAllAnswerTheSameRecord() {
        // given a slot filler (as flow/slotfillers/id)
        Supplier<String> filler = () -> {
            String flowId = newFlow();
            return flowId + "/slotfillers/" + json(HttpMethod.POST, "/v2.0/flows/" + flowId + "/slotfillers",
                    Map.of("name", "Zip", "type", "regex", "regex", "^[0-9]{5}$"), 201).get("_id");
        };
        // when twenty clients send the same PATCH at once
        // then each is decided on what the one before left: all 200
        burstTwice(filler, path -> status(HttpMethod.PATCH, "/v2.0/flows/" + path,
                        Map.of("name", "Postcode", "type", "slot", "slot", "zip")),
                answers -> assertThat(statuses(answers)).containsOnly(200));
    }

    @Test
    void twentyDeletesOfOneSlotFillerFindItGoneButOnce() {
        // given a slot filler
        Supplier<String> filler = () -> {
            String flowId = newFlow();
            return flowId + "/slotfillers/" + json(HttpMethod.POST, "/v2.0/flows/" + flowId + "/slotfillers",
                    Map.of("name", "Age", "type", "age"), 201).get("_id");
        };
        // when twenty clients delete it at once
        // then one deletes it, nineteen find it gone
        burstTwice(filler, path -> status(HttpMethod.DELETE, "/v2.0/flows/" + path, null),
                answers -> assertThat(statuses(answers)).containsOnly(204, 404).containsOnlyOnce(204));
    }

    @Test
    void twentyCreatesOfOneLabelInOneProjectStoreOne() {
        // given a project: each burst posts its own label
        // when twenty clients create a token of one label at once (twenty aggregates: they do not take turns, and
        // wait in the database for the first one's label to commit)
        // then one is created, nineteen conflict with it
        burstTwice(() -> "Label " + UUID.randomUUID(),
                label -> status(HttpMethod.POST, "/v2.0/projects/" + projectId + "/snippets",
                        Map.of("label", label, "type", "flow-output", "script", "x")),
                answers -> assertThat(statuses(answers)).containsOnly(201, 409).containsOnlyOnce(201), false);
    }

    @Test
    void twentyCancelsOfOneTaskAllAnswerCancelling() {
        // given a task waiting at its gate
        List<String> tasks = new ArrayList<>();
        Supplier<String> task = () -> {
            String id = submitter.submit(TaskId.generate(), "test-gate", ProjectId.of(projectId), Map.of(), admin())
                    .taskId().value();
            tasks.add(id);
            return id;
        };
        try {
            // when twenty clients cancel it at once
            // then all answer 202: the first asks for the cancel, the others find it asked for already
            burstTwice(task, taskId -> status(HttpMethod.POST, "/v2.0/tasks/" + taskId + "/cancel", null),
                    answers -> assertThat(statuses(answers)).containsOnly(202));
        } finally {
            tasks.forEach(TestWorks::open);
            // the cancelled tasks end in the background: let them, so their events do not land in the next test
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline && jdbc.queryForObject("SELECT count(*) FROM task_run WHERE task_id "
                    + "= ANY(?) AND status NOT IN ('done', 'error', 'cancelled')", Long.class,
                    (Object) tasks.toArray(String[]::new)) > 0) {
                Thread.onSpinWait();
            }
        }
    }

    // ---- the burst and the canary

    private record Answer(int status, long millis) {
    }

    /**
     * A burst on a first resource (warm-up), then on a second one, timed with the canary beside it. A burst on one
     * aggregate uses no more than {@link #CONNECTIONS} pooled connections.
     */
    private void burstTwice(Supplier<String> resource, Function<String, Integer> request,
                            Consumer<List<Answer>> expected) {
        burstTwice(resource, request, expected, true);
    }

    private void burstTwice(Supplier<String> resource, Function<String, Integer> request,
                            Consumer<List<Answer>> expected, boolean oneAggregate) {
        String warmUp = resource.get();
        String timed = resource.get();
        expected.accept(burst(() -> request.apply(warmUp)).answers());

        long canaryBefore = median(canaryLatencies(CANARY_BASELINE));
        Burst burst = burst(() -> request.apply(timed));
        System.out.printf("BURST %s: resolved in %d ms (slowest answer %d ms); canary %d ms before, %s ms during; "
                        + "at most %d pooled connections in use%n", testName(), burst.millis(),
                max(burst.answers().stream().map(Answer::millis).toList()), canaryBefore, burst.canary(),
                burst.connections());

        expected.accept(burst.answers());
        assertThat(burst.answers()).allSatisfy(answer -> assertThat(answer.millis()).isLessThan(RESOLVED_MILLIS));
        // the canary's typical answer stays within a multiple of its latency before; none waits as long as the
        // burst may take (one pause of a busy machine's garbage collector may make one canary slow, not all)
        assertThat(median(burst.canary()))
                .isLessThanOrEqualTo(CANARY_FACTOR * Math.max(canaryBefore, CANARY_FLOOR_MILLIS));
        assertThat(burst.canary()).allSatisfy(millis -> assertThat(millis).isLessThan(RESOLVED_MILLIS));
        if (oneAggregate) {
            assertThat(burst.connections()).isLessThanOrEqualTo(CONNECTIONS);
        }
    }

    private record Burst(List<Answer> answers, long millis, List<Long> canary, int connections) {
    }

    /** Sends {@code request} from {@link #BURST} clients released together, and canary writes until all answered. */
    private Burst burst(Supplier<Integer> request) {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                await(start);
                long began = System.nanoTime();
                int status = request.get();
                return new Answer(status, millisSince(began));
            }, clients));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new));
        HikariPoolMXBean pool = ((HikariDataSource) dataSource).getHikariPoolMXBean();
        CompletableFuture<Integer> connections = CompletableFuture.supplyAsync(() -> {
            int most = 0;
            while (!all.isDone()) {
                most = Math.max(most, pool.getActiveConnections());
                Thread.onSpinWait();
            }
            return most;
        }, clients);
        long began = System.nanoTime();
        start.countDown();
        List<Long> canary = new ArrayList<>();
        do {
            canary.addAll(canaryLatencies(1));
        } while (!all.isDone() || canary.size() < CANARY_DURING);
        all.join();
        long millis = millisSince(began);
        return new Burst(answers.stream().map(CompletableFuture::join).toList(), millis, canary, connections.join());
    }

    /** The other organisation creates projects one after another: each one's latency. */
    private List<Long> canaryLatencies(int count) {
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long began = System.nanoTime();
            http.post().uri("/v2.0/projects").header("X-API-Key", canaryKey).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("name", "Canary " + UUID.randomUUID(), "locale", "en-US"))
                    .exchange().expectStatus().isCreated();
            latencies.add(millisSince(began));
        }
        return latencies;
    }

    // ---- resources and requests

    private String newToken() {
        return (String) json(HttpMethod.POST, "/v2.0/projects/" + projectId + "/snippets",
                Map.of("label", "Doomed " + UUID.randomUUID(), "type", "flow-output", "script", "x"), 201).get("_id");
    }

    private String newFlow() {
        return (String) json(HttpMethod.POST, "/v2.0/flows",
                Map.of("projectId", projectId, "name", "Flow " + UUID.randomUUID()), 201).get("_id");
    }

    private String newLocale() {
        return (String) createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "Locale " + UUID.randomUUID(),
                "nluLanguage", "de-DE")).get("_id");
    }

    private Actor admin() {
        String user = adminUserId();
        String org = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE id = ?", String.class, user);
        return new Actor(user, org, Role.SYSTEM_ADMIN);
    }

    private int status(HttpMethod method, String uri, Object body) {
        var request = http.method(method).uri(uri).header("X-API-Key", ADMIN_KEY);
        var exchange = body == null ? request.exchange()
                : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
        return exchange.returnResult(Void.class).getStatus().value();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> json(HttpMethod method, String uri, Object body, int status) {
        var request = http.method(method).uri(uri).header("X-API-Key", ADMIN_KEY);
        var exchange = body == null ? request.exchange()
                : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
        return exchange.expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    private static List<Integer> statuses(List<Answer> answers) {
        return answers.stream().map(Answer::status).toList();
    }

    private static String testName() {
        return StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getMethodName)
                .filter(name -> name.startsWith("twenty")).findFirst().orElse("?"));
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
