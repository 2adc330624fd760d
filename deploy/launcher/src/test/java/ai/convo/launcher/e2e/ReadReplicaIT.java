package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Query services that read projections from a real PostgreSQL streaming standby (same binaries as the primary) while
 * their projections write to the primary. A script writes and reads back at once through the gateway: every read
 * reflects its write, because the wait is on the standby's own copy of the projection tokens. With replay paused on
 * the standby, a read of a fresh write answers 503 with Retry-After instead of the stale row, which also shows the
 * reads really go to the standby.
 */
class ReadReplicaIT {

    private static final int ROUNDS = 100;
    private static Stack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = new Stack(new Stack.Layout(1, 2, 1, true, true, Map.of("READ_YOUR_WRITES_MAX_WAIT", "2s")));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static void onStandby(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.standby.jdbcUrl("convo"), stack.standby.user(), "");
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void readsFromTheStandbyReflectTheirOwnWritesAndNeverAnswerStale() throws Exception {
        Api api = Api.withKey(stack.baseUrl(), Stack.ADMIN_KEY);
        Api.Answer project = api.post("/v2.0/projects", Map.of("name", "Replica", "locale", "en-US"));
        assertThat(project.status()).as(project.raw().body()).isEqualTo(201);
        String projectId = project.body().get("_id").stringValue();

        // given reads that go to the standby, when a script writes and reads back at once, then every read reflects it
        List<String> wrong = new ArrayList<>();
        List<Double> millis = new ArrayList<>();
        String localeId = null;
        for (int round = 0; round < ROUNDS; round++) {
            String name = "Locale " + round;
            long t = System.nanoTime();
            Api.Answer created = api.post("/v2.0/locales", Map.of("projectId", projectId, "name", name,
                    "nluLanguage", "de-DE"));
            assertThat(created.status()).as(created.raw().body()).isEqualTo(201);
            localeId = created.body().get("_id").stringValue();
            Api.Answer read = api.get("/v2.0/locales/" + localeId);
            millis.add((System.nanoTime() - t) / 1e6);
            if (read.status() != 200 || !read.body().get("name").stringValue().equals(name)) {
                wrong.add("locale " + round + ": " + read.status() + " " + read.raw().body());
            }
            // createdAt has whole seconds, so the new locale is told by the total, not by its place in the order
            Api.Answer list = api.get("/v2.0/locales?projectId=" + projectId + "&limit=1");
            if (list.status() != 200 || list.body().get("total").longValue() != round + 2) {
                wrong.add("list " + round + ": " + list.status() + " " + list.raw().body());
            }
        }
        Collections.sort(millis);
        System.out.printf("read replica: %d write-then-read pairs via the standby, median %.1f ms, p99 %.1f ms, "
                + "%d wrong%n", ROUNDS, millis.get(ROUNDS / 2), millis.get(ROUNDS * 99 / 100), wrong.size());
        assertThat(wrong).isEmpty();

        // given replay paused on the standby, when the script renames the locale and reads back at once
        onStandby("SELECT pg_wal_replay_pause()");
        try {
            Api.Answer renamed = api.patch("/v2.0/locales/" + localeId, Map.of("name", "Renamed"));
            assertThat(renamed.status()).as(renamed.raw().body()).isEqualTo(200);
            Api.Answer held = api.get("/v2.0/locales/" + localeId);

            // then the read does not show the old name: it says the read model is catching up
            assertThat(held.status()).as(held.raw().body()).isEqualTo(503);
            assertThat(held.header("Retry-After")).isNotNull();
            assertThat(held.body().get("detail").stringValue()).contains("catching up");
        } finally {
            onStandby("SELECT pg_wal_replay_resume()");
        }

        // when replay resumes, then the same read shows the write
        Api.Answer after = api.get("/v2.0/locales/" + localeId);
        assertThat(after.status()).as(after.raw().body()).isEqualTo(200);
        assertThat(after.body().get("name").stringValue()).isEqualTo("Renamed");
    }
}
