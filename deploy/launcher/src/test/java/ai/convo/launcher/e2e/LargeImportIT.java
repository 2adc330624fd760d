package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The largest documented import beside another organisation's steady writes, through the gateway, with the real
 * services (issue 37): 10,000 intents × 5 example sentences (about 60,000 events) imported by one organisation while
 * another writes and reads its writes back, without any header, every 250 ms. Every read of the other organisation
 * answers 200 within the read-your-writes bound (5 s), and the importer reads all its intents within a minute of
 * its upload. Scale: {@code -Dlarge-import.intents=N}.
 */
class LargeImportIT {

    private static final int INTENTS = Integer.getInteger("large-import.intents", 10_000);
    private static final long BOUND_MILLIS = 5_000;

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
    void anotherOrganisationReadsItsWritesWithinTheBoundWhileTheLargestImportIsApplied() throws Exception {
        // given: the importer's flow, and another organisation with a project and a flow of its own
        JsonNode project = created(admin.post("/v2.0/projects", Map.of("name", "Import", "locale", "en-US")));
        String localeId = project.get("primaryLocaleReference").stringValue();
        String flowId = created(admin.post("/v2.0/flows", Map.of("projectId", project.get("_id").stringValue(),
                "name", "Imported"))).get("_id").stringValue();
        created(admin.post("/management/v2.0/organisations", Map.of("name", "Steady", "adminEmail",
                "steady@example.com", "adminPassword", "steady-password")));
        Api other = Api.withKey(stack.baseUrl(), created(Api.withBasic(stack.baseUrl(), "steady@example.com",
                "steady-password").post("/v2.0/users/me/apikeys", Map.of("label", "steady"))).get("key").stringValue());
        String steady = created(other.post("/v2.0/projects", Map.of("name", "Steady", "locale", "de-DE")))
                .get("_id").stringValue();
        String steadyFlow = created(other.post("/v2.0/flows", Map.of("projectId", steady, "name", "Steady")))
                .get("_id").stringValue();
        byte[] file = file(INTENTS);

        // and: the other organisation writing and reading its writes back every 250 ms
        List<long[]> reads = Collections.synchronizedList(new ArrayList<>()); // {ms, status}
        List<String> refusals = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean importing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            for (int n = 0; importing.get(); n++) {
                boolean locale = n % 2 == 0;
                Api.Answer wrote = locale
                        ? other.post("/v2.0/locales", Map.of("projectId", steady, "name", "Locale " + n,
                                "nluLanguage", "fr-FR"))
                        : other.post("/v2.0/flows/" + steadyFlow + "/intents", Map.of("name", "Intent " + n));
                if (wrote.status() != 201) {
                    refusals.add("write " + wrote.status() + " " + wrote.raw().body());
                }
                long started = System.nanoTime();
                Api.Answer read = other.get(locale ? "/v2.0/locales?projectId=" + steady + "&limit=1"
                        : "/v2.0/flows/" + steadyFlow + "/intents?limit=1");
                reads.add(new long[] {(System.nanoTime() - started) / 1_000_000, read.status()});
                if (read.status() != 200) {
                    refusals.add("read " + read.status() + " " + read.raw().body());
                }
                sleep(250);
            }
        });
        writer.start();
        sleep(2_000);

        // when: the importer uploads the file
        long uploaded = System.nanoTime();
        Api.Answer accepted = admin.upload("/v2.0/flows/" + flowId + "/intents/import",
                Map.of("localeId", localeId, "mode", "skip"), "intents.json", file);
        assertThat(accepted.status()).as(accepted.raw().body()).isEqualTo(202);
        String taskId = accepted.body().get("_id").stringValue();
        String status = "";
        while (!List.of("done", "error", "cancelled").contains(status)
                && System.nanoTime() - uploaded < 300_000_000_000L) {
            sleep(500);
            Api.Answer task = admin.get("/v2.0/tasks/" + taskId);
            status = task.status() == 200 ? task.body().get("status").stringValue() : status;
        }
        long total = admin.get("/v2.0/flows/" + flowId + "/intents?limit=1").body().get("total").longValue();
        double importerSeconds = (System.nanoTime() - uploaded) / 1e9;
        sleep(2_000);
        importing.set(false);
        writer.join();

        // then
        long[] latencies;
        synchronized (reads) {
            latencies = reads.stream().mapToLong(r -> r[0]).sorted().toArray();
        }
        System.out.printf("large import of %d intents (%,d bytes): done and read back after %.1f s; the other "
                        + "organisation: %d reads after writes, median %d ms, 95th %d ms, slowest %d ms, %d refused%n",
                INTENTS, file.length, importerSeconds, latencies.length, latencies[latencies.length / 2],
                latencies[(int) (latencies.length * 0.95)], latencies[latencies.length - 1], refusals.size());
        assertThat(status).isEqualTo("done");
        assertThat(total).isEqualTo(INTENTS);
        assertThat(importerSeconds).as("seconds from upload to reading every intent").isLessThan(60);
        assertThat(refusals).isEmpty();
        assertThat(latencies[latencies.length - 1]).as("slowest read after a write, ms").isLessThan(BOUND_MILLIS);
    }

    /** The client's JSON intents file: {@code intents} intents with five example sentences each. */
    private static byte[] file(int intents) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < intents; i++) {
            json.append(i == 0 ? "" : ",").append("{\"name\":\"Intent ").append(i).append("\",\"exampleSentences\":[");
            for (int s = 1; s <= 5; s++) {
                json.append(s == 1 ? "" : ",").append("\"sentence ").append(s).append(" of intent ").append(i)
                        .append('"');
            }
            json.append("]}");
        }
        return json.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
