package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two command services writing to the same aggregate at once, as separately scaled write deployments do: a
 * conflict on the aggregate's sequence number is decided again on the write side, so every request answers 200
 * (or a 409 problem once the retries are spent), never a 5xx; every acknowledged write is in the log exactly once
 * and nothing refused is; and a client that gives up on a write does not interrupt it: it runs to its end.
 */
class CommandReplicasIT {

    private static final int THREADS_PER_REPLICA = 4;
    private static final int PATCHES_PER_THREAD = 40;

    private static Stack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = new Stack(2, 1, 1);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static Api command(int replica) {
        return Api.withKey("http://127.0.0.1:" + stack.commandPorts.get(replica) + "/new", Stack.ADMIN_KEY);
    }

    @Test
    void concurrentWritesToOneAggregateOnTwoReplicasAreEachAppliedOnceAndNeverA5xx() throws Exception {
        JsonNode project = command(0).post("/v2.0/projects", Map.of("name", "Contended", "locale", "en-US")).body();
        String locale = project.get("primaryLocaleReference").stringValue();
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        List<String> acknowledged = new CopyOnWriteArrayList<>();
        List<String> refused = new CopyOnWriteArrayList<>();

        ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_REPLICA);
        List<Future<?>> done = new ArrayList<>();
        for (int replica = 0; replica < 2; replica++) {
            for (int thread = 0; thread < THREADS_PER_REPLICA; thread++) {
                Api api = command(replica);
                String prefix = "r" + replica + "t" + thread + "-";
                done.add(pool.submit(() -> {
                    for (int i = 0; i < PATCHES_PER_THREAD; i++) {
                        String name = prefix + i;
                        Api.Answer answer = api.patch("/v2.0/locales/" + locale, Map.of("name", name));
                        answers.merge(Integer.toString(answer.status()), 1, Integer::sum);
                        if (answer.status() == 200) {
                            acknowledged.add(name);
                        } else if (answer.status() == 409 && "1004".equals(answer.body().get("code").stringValue())) {
                            refused.add(name);
                        } else {
                            failures.add(name + ": " + answer.status() + " " + answer.raw().body());
                        }
                    }
                }));
            }
        }
        for (Future<?> future : done) {
            future.get();
        }
        pool.shutdown();

        System.out.printf("command replicas: %d concurrent PATCHes of one locale over 2 command services: %s%n",
                2 * THREADS_PER_REPLICA * PATCHES_PER_THREAD, answers);
        assertThat(failures).as("answers other than 200 and a 409 problem").isEmpty();
        assertThat(acknowledged).as("most writes succeed after a retry").hasSizeGreaterThan(refused.size());
        Map<String, Integer> stored = renamesInLog(project.get("_id").stringValue());
        for (String name : acknowledged) {
            assertThat(stored.getOrDefault(name, 0)).as("acknowledged " + name).isEqualTo(1);
        }
        for (String name : refused) {
            assertThat(stored).as("refused " + name).doesNotContainKey(name);
        }
    }

    @Test
    void aClientThatGivesUpDoesNotInterruptItsWrite() throws Exception {
        JsonNode project = command(1).post("/v2.0/projects", Map.of("name", "Impatient", "locale", "en-US")).body();
        String projectId = project.get("_id").stringValue();
        Path log = stack.commands.get(1).logFile();
        long logBefore = Files.size(log);
        try (Connection c = DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password())) {
            // given the command will be held up inside its transaction (its lookup insert waits for this lock)
            c.setAutoCommit(false);
            try (Statement lock = c.createStatement()) {
                lock.execute("LOCK TABLE cmd_locale_lookup IN EXCLUSIVE MODE");
            }
            // when its client gives up while it waits (Java's client asks for HTTP/2: the stream is reset)
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.commandPorts.get(1)
                            + "/new/v2.0/locales"))
                    .timeout(Duration.ofMillis(500))
                    .header("X-API-Key", Stack.ADMIN_KEY)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"projectId\":\"" + projectId
                            + "\",\"name\":\"impatient\",\"nluLanguage\":\"de-DE\"}"))
                    .build();
            try {
                HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding());
                throw new AssertionError("the create was answered while its lookup table was locked");
            } catch (HttpTimeoutException gaveUp) {
                // the client went away; the server carries on
            }
            c.rollback();
        }

        // then the command runs to its end, whole: its event and its lookup row
        try (Connection c = DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password());
             PreparedStatement events = c.prepareStatement("SELECT count(*) FROM domain_event_entry "
                     + "WHERE aggregate_identifier = ? AND payload_type LIKE '%LocaleCreatedEvent' "
                     + "AND convert_from(payload, 'UTF8') LIKE '%\"impatient\"%'");
             PreparedStatement lookups = c.prepareStatement("SELECT count(*) FROM cmd_locale_lookup WHERE project_id = ?")) {
            events.setString(1, projectId);
            lookups.setString(1, projectId);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (count(events) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // the command finishes after its client left: wait for it, within a bound
            }
            assertThat(count(events)).isEqualTo(1);
            assertThat(count(lookups)).as("the primary's and the impatient one's lookup rows").isEqualTo(2);
        }
        // and it was never interrupted (Axon reports an interrupted unit of work, even one that had committed)
        try (InputStream in = Files.newInputStream(log)) {
            in.skipNBytes(logBefore);
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).doesNotContain("was interrupted");
        }
    }

    private static int count(PreparedStatement statement) throws Exception {
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** How often each name was given to a locale by a stored LocaleUpdatedEvent of the project. */
    private static Map<String, Integer> renamesInLog(String projectId) throws Exception {
        Map<String, Integer> names = new ConcurrentHashMap<>();
        try (Connection c = DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password());
             PreparedStatement s = c.prepareStatement("SELECT substring(convert_from(payload, 'UTF8') "
                     + "FROM '\"name\":\"([^\"]*)\"') FROM domain_event_entry WHERE aggregate_identifier = ? "
                     + "AND payload_type LIKE '%LocaleUpdatedEvent'")) {
            s.setString(1, projectId);
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    names.merge(rows.getString(1), 1, Integer::sum);
                }
            }
        }
        return names;
    }
}
