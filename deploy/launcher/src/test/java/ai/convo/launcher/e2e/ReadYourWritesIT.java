package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Two command services, two query services and two gateways over one PostgreSQL, as separately scaled deployments
 * run them. A script writes through one gateway and reads back at once through another, as the official client
 * does: no header, no retry. Every read must reflect the write it follows, also while a query replica is killed and
 * its segments move to the other, and after it comes back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadYourWritesIT {

    private static final int PAIRS = 1000;
    /** Rounds of about eleven pairs each. */
    private static final int KILL_ROUND = 35;
    private static final int RESTART_ROUND = 60;

    private static Stack stack;
    private final Random random = new Random(7);
    private final boolean[] queryAlive = {true, true};
    private final List<String> stale = new ArrayList<>();
    private final List<String> serverErrors = new ArrayList<>();
    private final List<Double> latencies = new ArrayList<>();
    private int pairs;
    private int waited;
    private int killedAt;
    private int restartedAt;

    @BeforeAll
    static void start() throws Exception {
        stack = new Stack(2, 2, 2);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    /** Writes may go through any gateway: every command service is alive. */
    private Api writer() {
        return Api.withKey(stack.baseUrl(random.nextInt(2)), Stack.ADMIN_KEY);
    }

    /** Reads go through a gateway whose query service is alive. */
    private Api reader() {
        int gateway = random.nextInt(2);
        if (!queryAlive[gateway]) {
            gateway = 1 - gateway;
        }
        return Api.withKey(stack.baseUrl(gateway), Stack.ADMIN_KEY);
    }

    private JsonNode write(String what, Api.Answer answer, int status) {
        if (answer.status() >= 500) {
            serverErrors.add(what + ": " + answer.status() + " " + answer.raw().body());
        }
        assertThat(answer.status()).as(what + ": " + answer.raw().body()).isEqualTo(status);
        return answer.body();
    }

    /** Reads at once after a write answered at {@code writtenAt} and checks the answer reflects it. */
    private JsonNode readBack(String what, String path, long writtenAt, int status, Predicate<JsonNode> reflects) {
        Api.Answer read = reader().get(path);
        latencies.add((System.nanoTime() - writtenAt) / 1e6);
        pairs++;
        if (read.raw().headers().allValues("Server-Timing").stream().anyMatch(v -> v.startsWith("ryw;"))) {
            waited++;
        }
        if (read.status() >= 500) {
            serverErrors.add(what + ": " + read.status() + " " + read.raw().body());
        } else if (read.status() != status || (read.body() != null && !reflects.test(read.body()))) {
            stale.add(what + ": " + read.status() + " " + read.raw().body());
        }
        return read.body();
    }

    private static String id(JsonNode node) {
        return node.get("_id").stringValue();
    }

    @Test
    @Order(1)
    void everyWriteIsReadBackAtOnceThroughAnyReplicaAlsoWhileOneDies() throws Exception {
        long t = System.nanoTime();
        JsonNode project = write("create project", writer().post("/v2.0/projects",
                Map.of("name", "Read your writes", "locale", "en-US")), 201);
        String projectId = id(project);
        String primary = project.get("primaryLocaleReference").stringValue();
        readBack("read new project", "/v2.0/projects/" + projectId, t, 200, p -> p.get("name").stringValue()
                .equals("Read your writes"));

        t = System.nanoTime();
        JsonNode flow = write("create flow", writer().post("/v2.0/flows", Map.of("projectId", projectId, "name", "Main")), 201);
        String flowId = id(flow);
        readBack("read new flow", "/v2.0/flows/" + flowId, t, 200, f -> f.get("name").stringValue().equals("Main"));

        int functions = 0;
        List<String> intents = new ArrayList<>();
        int round = 0;
        while (pairs < PAIRS) {
            if (round == KILL_ROUND) {
                // one query replica dies; its segments move to the other within the claim timeout
                stack.queries.get(1).kill();
                queryAlive[1] = false;
                killedAt = pairs;
            }
            if (round == RESTART_ROUND) {
                stack.startQuery(1);
                queryAlive[1] = true;
                restartedAt = pairs;
            }
            round++;
            String n = Integer.toString(round);

            // a locale: created, renamed, made primary (the old primary is demoted), deleted
            t = System.nanoTime();
            JsonNode locale = write("create locale", writer().post("/v2.0/locales", Map.of("projectId", projectId,
                    "name", "Locale " + n, "nluLanguage", "de-DE")), 201);
            String localeId = id(locale);
            readBack("read new locale " + n, "/v2.0/locales/" + localeId, t, 200,
                    l -> l.get("name").stringValue().equals("Locale " + n));
            t = System.nanoTime();
            write("rename locale", writer().patch("/v2.0/locales/" + localeId, Map.of("name", "Renamed " + n)), 200);
            readBack("read renamed locale " + n, "/v2.0/locales/" + localeId, t, 200,
                    l -> l.get("name").stringValue().equals("Renamed " + n));
            t = System.nanoTime();
            write("make primary", writer().patch("/v2.0/locales/" + localeId, Map.of("primary", true)), 200);
            String oldPrimary = primary;
            readBack("old primary demoted " + n, "/v2.0/locales/" + oldPrimary, t, 200,
                    l -> !l.get("primary").booleanValue());
            readBack("project follows the primary " + n, "/v2.0/projects/" + projectId, t, 200,
                    p -> p.get("primaryLocaleReference").stringValue().equals(localeId));
            primary = localeId;
            t = System.nanoTime();
            write("delete old primary", writer().delete("/v2.0/locales/" + oldPrimary), 204);
            readBack("deleted locale is gone " + n, "/v2.0/locales/" + oldPrimary, t, 404, l -> true);
            readBack("locale list total " + n, "/v2.0/locales?projectId=" + projectId, t, 200,
                    l -> l.get("total").intValue() == 1);

            // a function: created, counted, deleted, uncounted
            t = System.nanoTime();
            String functionId = id(write("create function", writer().post("/v2.0/functions", Map.of("projectId",
                    projectId, "name", "fn " + n, "code", "return " + n + ";")), 201));
            functions++;
            int expected = functions;
            readBack("function list total " + n, "/v2.0/functions?projectId=" + projectId, t, 200,
                    l -> l.get("total").intValue() == expected);
            if (round % 2 == 0) {
                t = System.nanoTime();
                write("delete function", writer().delete("/v2.0/functions/" + functionId), 204);
                functions--;
                int left = functions;
                readBack("deleted function is gone " + n, "/v2.0/functions/" + functionId, t, 404, f -> true);
                readBack("function list total after delete " + n, "/v2.0/functions?projectId=" + projectId, t, 200,
                        l -> l.get("total").intValue() == left);
            }

            // a token
            t = System.nanoTime();
            String tokenId = id(write("create token", writer().post("/v2.0/projects/" + projectId + "/snippets",
                    Map.of("label", "token " + n, "type", "custom", "script", "x" + n)), 201));
            readBack("read new token " + n, "/v2.0/projects/" + projectId + "/snippets/" + tokenId, t, 200,
                    k -> k.get("label").stringValue().equals("token " + n));

            // an intent with a sentence, and its feedback report
            t = System.nanoTime();
            String intentId = id(write("create intent", writer().post("/v2.0/flows/" + flowId + "/intents",
                    Map.of("name", "intent " + n)), 201));
            intents.add(intentId);
            readBack("read new intent " + n, "/v2.0/flows/" + flowId + "/intents/" + intentId, t, 200,
                    i -> i.get("name").stringValue().equals("intent " + n));
            t = System.nanoTime();
            write("create sentence", writer().post("/v2.0/flows/" + flowId + "/intents/" + intentId + "/sentences",
                    Map.of("text", "say " + n + " please", "localeId", primary)), 201);
            readBack("sentence list total " + n, "/v2.0/flows/" + flowId + "/intents/" + intentId + "/sentences",
                    t, 200, s -> s.get("total").intValue() == 1);
            if (round % 10 == 0) {
                t = System.nanoTime();
                write("another sentence", writer().post("/v2.0/flows/" + flowId + "/intents/" + intentId
                        + "/sentences", Map.of("text", "and " + n + " again", "localeId", primary)), 201);
                readBack("feedback reports " + n, "/v2.0/flows/" + flowId + "/intents?includeFeedbackReport=true"
                        + "&limit=100&preferredLocaleId=" + primary, t, 200, page -> {
                            for (JsonNode item : page.get("items")) {
                                if (id(item).equals(intentId)) {
                                    return item.get("sentenceCount").intValue() == 2
                                            && item.get("feedbackReport") != null && !item.get("feedbackReport").isNull();
                                }
                            }
                            return false;
                        });
            }

            // a knowledge store and a source
            if (round % 5 == 0) {
                t = System.nanoTime();
                String storeId = id(write("create store", writer().post("/v2.0/knowledgestores", Map.of("projectId",
                        projectId, "name", "store " + n, "language", "en-US")), 201));
                readBack("read new store " + n, "/v2.0/knowledgestores/" + storeId, t, 200,
                        s -> s.get("name").stringValue().equals("store " + n));
                t = System.nanoTime();
                JsonNode source = write("create source", writer().post("/v2.0/knowledgestores/" + storeId + "/sources",
                        Map.of("name", "source " + n, "type", "manual")), 201);
                String sourceId = source.has("_id") ? id(source) : id(source.get("knowledgeSource"));
                readBack("read new source " + n, "/v2.0/knowledgestores/" + storeId + "/sources/" + sourceId, t, 200,
                        s -> s.get("name").stringValue().equals("source " + n));
            }

            // a snapshot's task, the Alexa link and the system message, now and then
            if (round % 20 == 0 && round <= 100) {
                t = System.nanoTime();
                Api.Answer task = writer().post("/v2.0/snapshots", Map.of("projectId", projectId, "name", "snap " + n));
                write("create snapshot", task, 202);
                readBack("read the snapshot's task " + n, "/v2.0/tasks/" + id(task.body()), t, 200,
                        k -> k.get("type").stringValue().equals("createSnapshot"));
            }
            if (round % 15 == 0) {
                t = System.nanoTime();
                write("link alexa", writer().post("/v2.0/external/alexa/users", Map.of("accessToken", "a" + n,
                        "refreshToken", "r" + n)), 201);
                readBack("read the alexa link " + n, "/v2.0/external/alexa/users/me", t, 200, a -> true);
                t = System.nanoTime();
                write("unlink alexa", writer().delete("/v2.0/external/alexa/users/me"), 204);
                readBack("alexa link gone " + n, "/v2.0/external/alexa/users/me", t, 404, a -> true);
            }
            if (round % 25 == 0) {
                t = System.nanoTime();
                Api basic = Api.withBasic(stack.baseUrl(random.nextInt(2)), Stack.ADMIN_EMAIL, Stack.ADMIN_PASSWORD);
                write("system message", basic.post("/management/v2.0/system/createsystemmessage",
                        Map.of("message", "notice " + n, "until", 2_000_000_000L)), 201);
                readBack("read the system message " + n, "/v2.0/system/message", t, 200,
                        m -> m.get("message").stringValue().equals("notice " + n));
            }
        }

        t = System.nanoTime();
        write("delete project", writer().delete("/v2.0/projects/" + projectId), 204);
        readBack("deleted project is gone", "/v2.0/projects/" + projectId, t, 404, p -> true);

        Collections.sort(latencies);
        System.out.printf("read-your-writes: %d write-then-read pairs over 2 gateways, 2 command and 2 query services"
                        + " (one killed after %d pairs, back after %d): %d stale, %d 5xx, %d waited (%.1f%%), "
                        + "write-then-read p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", pairs, killedAt, restartedAt,
                stale.size(), serverErrors.size(), waited, 100.0 * waited / pairs,
                latencies.get(latencies.size() / 2), latencies.get((int) (latencies.size() * 0.99)),
                latencies.get(latencies.size() - 1));
        assertThat(stale).as("stale reads").isEmpty();
        assertThat(serverErrors).as("5xx answers").isEmpty();
        assertThat(pairs).isGreaterThanOrEqualTo(PAIRS);
    }

    /**
     * After every feature's journey (the test before, plus a state and call records here), an operator rebuilds every
     * projection while both query replicas serve reads of fresh writes: the rebuilt tables equal the live ones
     * (digest of every table), the Task shows the progress, and no read fails or goes stale meanwhile.
     */
    @Test
    @Order(2)
    void aRebuildOfEveryProjectionIsIdenticalAndTheServiceServesThroughIt() throws Exception {
        // given: the journeys of the test before, a state with an intent, call records
        String projectId = id(write("create project", writer().post("/v2.0/projects", Map.of("name", "Rebuilt",
                "locale", "en-US")), 201));
        String flowId = id(write("create flow", writer().post("/v2.0/flows", Map.of("projectId", projectId,
                "name", "Flow")), 201));
        String intentId = id(write("create intent", writer().post("/v2.0/flows/" + flowId + "/intents",
                Map.of("name", "greet")), 201));
        String stateId = id(write("create state", writer().post("/v2.0/flows/" + flowId + "/states",
                Map.of("name", "start")), 201));
        write("add intent to state", writer().post("/v2.0/flows/" + flowId + "/states/" + stateId + "/addintent",
                Map.of("intentId", intentId)), 200);
        write("call records", writer().post("/management/v2.0/callrecords", Map.of("records", List.of(
                Map.of("callId", "rebuild-1", "projectId", projectId, "startedAt", 1_700_000_000L,
                        "endedAt", 1_700_000_090L, "billable", true)))), 200);

        // when: everything is rebuilt, identical required, while writes and reads go on through both replicas
        Api operator = writer();
        Api.Answer requested = operator.post("/management/v2.0/projections/rebuild",
                Map.of("projection", "all", "requireIdentical", true));
        assertThat(requested.status()).as(requested.raw().body()).isEqualTo(202);
        String taskId = id(requested.body());
        assertThat(requested.header("Location")).endsWith("/v2.0/tasks/" + taskId);
        JsonNode task = null;
        long deadline = System.nanoTime() + 180_000_000_000L;
        int round = 0;
        while (System.nanoTime() < deadline) {
            long t = System.nanoTime();
            int n = round++;
            String tokenId = id(write("token during rebuild", writer().post("/v2.0/projects/" + projectId + "/snippets",
                    Map.of("label", "during " + n, "type", "custom", "script", "x")), 201));
            readBack("token during rebuild " + n, "/v2.0/projects/" + projectId + "/snippets/" + tokenId, t, 200,
                    k -> k.get("label").stringValue().equals("during " + n));
            task = reader().get("/v2.0/tasks/" + taskId).body();
            if (task != null && List.of("done", "error", "cancelled").contains(task.get("status").stringValue())) {
                break;
            }
        }

        // then: done and identical, every table's digests equal, nothing failed or went stale on the way
        assertThat(task).isNotNull();
        assertThat(task.get("status").stringValue()).as(task.toString()).isEqualTo("done");
        assertThat(task.get("totalStep").intValue()).isPositive();
        JsonNode rebuild = operator.get("/management/v2.0/projections/rebuilds/" + taskId).body();
        assertThat(rebuild.get("identical").booleanValue()).as(rebuild.toString()).isTrue();
        JsonNode digests = rebuild.get("digests");
        assertThat(digests.size()).isGreaterThanOrEqualTo(20);
        digests.properties().forEach(table -> assertThat(table.getValue().get("rebuilt"))
                .as(table.getKey()).isEqualTo(table.getValue().get("live")));
        assertThat(digests.get("event_log").get("live").get("rows").longValue()).isGreaterThan(500);
        assertThat(serverErrors).isEmpty();
        assertThat(stale).isEmpty();
        System.out.printf("Rebuild of every projection during %d write/read rounds: %s events, %d passes, writes "
                        + "paused %s ms, reads paused %s ms%n", round, rebuild.get("eventsDone"), rebuild.get("passes").intValue(),
                rebuild.get("writePauseMs"), rebuild.get("readPauseMs"));
    }
}
