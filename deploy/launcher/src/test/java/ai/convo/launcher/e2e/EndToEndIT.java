package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/** Gateway + command service + query service + one PostgreSQL, each as it is deployed. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndToEndIT {

    private static Stack stack;
    private static Api admin;

    @BeforeAll
    static void start() throws Exception {
        stack = new Stack();
        admin = Api.withKey(stack.baseUrl(), Stack.ADMIN_KEY);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static JsonNode created(Api.Answer answer) {
        assertThat(answer.status()).as(answer.raw().body()).isEqualTo(201);
        return answer.body();
    }

    @Test
    @Order(1)
    void aPatchThroughTheGatewayIsReadBackThroughTheGateway() {
        JsonNode project = created(admin.post("/v2.0/projects", Map.of("name", "E2E", "locale", "en-US")));
        String locale = project.get("primaryLocaleReference").stringValue();

        Api.Answer patched = admin.patch("/v2.0/locales/" + locale, Map.of("name", "English (US)", "nluLanguage", "en-GB"));
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.raw().headers().firstValue("Content-Type")).hasValue("application/json");
        String position = patched.header("X-Event-Position");
        assertThat(position).isNotNull();

        Api.Answer read = admin.getAfter("/v2.0/locales/" + locale, position);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(patched.body());
        assertThat(read.header("Access-Control-Allow-Origin")).isEqualTo("*");

        Api.Answer list = admin.getAfter("/v2.0/locales?projectId=" + project.get("_id").stringValue(), position);
        assertThat(list.body().get("total").intValue()).isEqualTo(1);
        assertThat(list.body().get("items").get(0)).isEqualTo(patched.body());
    }

    @Test
    @Order(2)
    void anotherOrganisationGets404OnEveryEndpointForTheFirstOnesData() {
        JsonNode project = created(admin.post("/v2.0/projects", Map.of("name", "Secret", "locale", "de-DE")));
        String projectId = project.get("_id").stringValue();
        String primary = project.get("primaryLocaleReference").stringValue();
        JsonNode second = created(admin.post("/v2.0/locales", Map.of("projectId", projectId, "name", "Second",
                "nluLanguage", "fr-FR")));
        String secondId = second.get("_id").stringValue();
        String position = admin.patch("/v2.0/locales/" + secondId, Map.of()).header("X-Event-Position");

        created(admin.post("/management/v2.0/organisations", Map.of("name", "Rival", "adminEmail", "rival@example.com",
                "adminPassword", "rival-password")));
        JsonNode key = created(Api.withBasic(stack.baseUrl(), "rival@example.com", "rival-password")
                .post("/v2.0/users/me/apikeys", Map.of("label", "rival")));
        Api rival = Api.withKey(stack.baseUrl(), key.get("key").stringValue());

        Map<String, Integer> statuses = new HashMap<>();
        statuses.put("GET project", rival.getAfter("/v2.0/projects/" + projectId, position).status());
        statuses.put("GET locales of project", rival.getAfter("/v2.0/locales?projectId=" + projectId, position).status());
        statuses.put("GET locale", rival.getAfter("/v2.0/locales/" + secondId, position).status());
        statuses.put("PATCH locale", rival.patch("/v2.0/locales/" + secondId, Map.of("name", "pwned")).status());
        statuses.put("DELETE locale", rival.delete("/v2.0/locales/" + secondId).status());
        statuses.put("POST locale into project", rival.post("/v2.0/locales", Map.of("projectId", projectId,
                "name", "Intruder", "nluLanguage", "de-DE")).status());
        statuses.put("DELETE project", rival.delete("/v2.0/projects/" + projectId).status());
        statuses.put("DELETE primary locale", rival.delete("/v2.0/locales/" + primary).status());
        assertThat(statuses).allSatisfy((operation, status) -> assertThat(status).as(operation).isEqualTo(404));

        // Lists never show another organisation's data.
        assertThat(rival.getAfter("/v2.0/projects", position).body().get("total").intValue()).isZero();
        assertThat(rival.getAfter("/v2.0/locales", position).body().get("total").intValue()).isZero();
        // And nothing changed for the owner.
        JsonNode mine = admin.getAfter("/v2.0/locales/" + secondId, position).body();
        assertThat(mine.get("name").stringValue()).isEqualTo("Second");
        assertThat(admin.get("/v2.0/projects/" + projectId).status()).isEqualTo(200);
    }

    @Test
    @Order(3)
    void theQueryServiceCrashesWhileEventsStreamAndCatchesUpWithoutDuplicatesOrGaps() throws Exception {
        JsonNode project = created(admin.post("/v2.0/projects", Map.of("name", "Crash", "locale", "en-US")));
        String projectId = project.get("_id").stringValue();
        Map<String, String> expectedNames = new ConcurrentHashMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        List<Throwable> failures = new ArrayList<>();

        // Writes go straight to the command service: the gateway may not route reads meanwhile, writes must go on.
        Api writer = Api.withKey("http://127.0.0.1:" + stack.commandPort + "/new", Stack.ADMIN_KEY);
        Thread stream = new Thread(() -> {
            try {
                while (writing.get() || written.get() < 60) {
                    int n = written.getAndIncrement();
                    JsonNode locale = created(writer.post("/v2.0/locales", Map.of("projectId", projectId,
                            "name", "Locale " + n, "nluLanguage", "de-DE")));
                    String id = locale.get("_id").stringValue();
                    Api.Answer renamed = writer.patch("/v2.0/locales/" + id, Map.of("name", "Renamed " + n));
                    assertThat(renamed.status()).isEqualTo(200);
                    expectedNames.put(id, "Renamed " + n);
                    if (n >= 200) {
                        break;
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        });
        stream.start();
        while (written.get() < 20) {
            Thread.sleep(10);
        }
        stack.query.kill();
        int atCrash = written.get();
        while (written.get() < atCrash + 20) {
            Thread.sleep(10);
        }
        // Answers once the restarted replica is ready: caught up with the log as it stood then. The read below
        // only waits for what was written since, instead of racing the whole catch-up against its bound.
        stack.startQuery();
        writing.set(false);
        stream.join(120_000);
        assertThat(failures).isEmpty();

        String last = writer.patch("/v2.0/locales/" + project.get("primaryLocaleReference").stringValue(), Map.of("name", "done"))
                .header("X-Event-Position");
        Api.Answer caughtUp = admin.getAfter("/v2.0/locales?projectId=" + projectId + "&limit=1", last);
        assertThat(caughtUp.status()).as(caughtUp.raw().body()).isEqualTo(200);
        assertThat(caughtUp.header("X-Event-Position-Reached")).isEqualTo("true");

        Map<String, String> projected = new HashMap<>();
        int rows;
        try (Connection c = DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password());
             Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT id, name FROM locale_view WHERE project_id = '" + projectId
                    + "' AND NOT is_primary")) {
                while (r.next()) {
                    projected.put(r.getString(1), r.getString(2));
                }
            }
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM locale_view WHERE project_id = '" + projectId + "'")) {
                r.next();
                rows = r.getInt(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        assertThat(expectedNames.size()).isGreaterThanOrEqualTo(60);
        assertThat(projected).isEqualTo(expectedNames);            // no gap, every final state
        assertThat(rows).isEqualTo(expectedNames.size() + 1);     // no duplicate (plus the primary)
    }

    @Test
    @Order(4)
    void theAuditTrailAndTheEventLogShowEveryCommandOnceAfterTheCrash() {
        JsonNode project = created(admin.post("/v2.0/projects", Map.of("name", "Audited", "locale", "en-US")));
        String projectId = project.get("_id").stringValue();
        String second = created(admin.post("/v2.0/locales", Map.of("projectId", projectId, "name", "German",
                "nluLanguage", "de-DE"))).get("_id").stringValue();
        // One command, two events (the new primary, the old one demoted): one audit event.
        assertThat(admin.patch("/v2.0/locales/" + second, Map.of("primary", true)).status()).isEqualTo(200);
        assertThat(admin.delete("/v2.0/locales/" + project.get("primaryLocaleReference").stringValue()).status())
                .isEqualTo(204);

        JsonNode audit = admin.get("/v2.0/auditevents?projectId=" + projectId + "&limit=100").body();
        List<String> kinds = new ArrayList<>();
        audit.get("items").forEach(e -> kinds.add(e.get("type").stringValue() + ":"
                + e.get("chain").get(e.get("chain").size() - 1).get("elementType").stringValue()));
        assertThat(kinds).containsExactly("create:project", "create:locale", "patch:locale", "delete:locale");
        JsonNode patch = audit.get("items").get(2);
        assertThat(patch.get("user").stringValue()).contains("@");
        assertThat(patch.get("payload").get("primary").booleanValue()).isTrue();
        assertThat(patch.get("payload").has("previousPrimaryLocaleId")).isTrue();

        // The organisation's whole log, after the query service was killed mid-stream (the test before): numbered
        // 1, 2, 3... with neither a gap nor a repeat, each event once.
        HttpResponse<String> log = admin.text("/v2.0/eventlog", "application/x-ndjson");
        assertThat(log.statusCode()).isEqualTo(200);
        List<Long> positions = new ArrayList<>();
        Set<String> eventIds = new HashSet<>();
        for (String line : log.body().split("\n")) {
            JsonNode event = Api.JSON.readTree(line);
            positions.add(event.get("position").longValue());
            eventIds.add(event.get("eventId").stringValue());
        }
        assertThat(positions).hasSizeGreaterThan(100);
        for (int i = 0; i < positions.size(); i++) {
            assertThat(positions.get(i)).isEqualTo(i + 1L);
        }
        assertThat(eventIds).hasSize(positions.size());
        try (Connection c = DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM domain_event_entry WHERE convert_from(payload, 'UTF8')"
                     + "::jsonb ->> 'organisationId' = (SELECT organisation_id FROM identity_api_key WHERE key_hash = "
                     + "encode(sha256(convert_to('" + Stack.ADMIN_KEY + "', 'UTF8')), 'hex'))")) {
            r.next();
            assertThat(positions).hasSize(r.getInt(1));
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * An operator's rebuild of a stopped system (what {@code run-local.sh rebuild all --require-identical} runs): the
     * query service alone rebuilds every projection from the log of the journeys above, finds the new tables
     * identical to the ones it kept live, exits 0, and the service serves them once started again.
     */
    @Test
    @Order(5)
    void aStoppedSystemIsRebuiltOfflineIdenticallyAndServesAgain() throws Exception {
        // given: the query service stopped
        stack.query.stop();

        // when: it runs as the rebuild command
        ai.convo.launcher.ServiceProcess rebuild = stack.runQueryCommand(Map.of("APP_REBUILD_NOW", "all",
                "APP_REBUILD_REQUIRE_IDENTICAL", "true"));
        int code = rebuild.onExit().get(180, java.util.concurrent.TimeUnit.SECONDS).exitCode();

        // then
        String output = rebuild.logTail(400);
        assertThat(code).as(output).isZero();
        assertThat(output).containsPattern("REBUILD [a-z0-9]{24} done: [0-9]+ events in [0-9.]+ s, identical to the "
                + "live tables: true");
        stack.startQuery();
        JsonNode projects = admin.get("/v2.0/projects").body();
        assertThat(projects.get("total").intValue()).isGreaterThanOrEqualTo(4);
    }
}
