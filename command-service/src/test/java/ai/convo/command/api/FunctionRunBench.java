package ai.convo.command.api;

import ai.convo.command.function.js.FunctionSandbox;
import ai.convo.command.function.js.SandboxLimits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * Figures of function runs on this stack: the sandbox's own cost per run, trigger-to-start and trigger-to-done of a
 * trivial function (from the instance's event timestamps), and instances per second for a burst. Not part of the suite
 * (no *Test name; needs -Dfunction.bench=true).
 */
@EnabledIfSystemProperty(named = "function.bench", matches = "true")
class FunctionRunBench extends ApiTestBase {

    @Autowired
    FunctionSandbox sandbox;
    @Autowired
    SandboxLimits limits;

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    @SuppressWarnings("unchecked")
    private String trigger(String functionId) {
        Map<String, Object> body = http.post().uri("/v2.0/functions/{f}/trigger", functionId).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("n", 1)).exchange()
                .expectStatus().isAccepted().expectBody(Map.class).returnResult().getResponseBody();
        return (String) body.get("functionInstanceId");
    }

    /** Event timestamps (ms) of the instance's triggered, started and ended events, once it has ended. */
    private long[] times(String instanceId) throws InterruptedException {
        while (true) {
            List<Long> at = jdbc.query("SELECT time_stamp FROM domain_event_entry WHERE aggregate_identifier = ? "
                    + "ORDER BY sequence_number", (rs, i) -> Instant.parse(rs.getString(1)).toEpochMilli(), instanceId);
            if (at.size() >= 3) {
                return new long[] {at.get(0), at.get(1), at.get(at.size() - 1)};
            }
            Thread.sleep(2);
        }
    }

    @Test
    void figures() throws Exception {
        // the sandbox alone: a context, the module, one api.log, the promise settled
        String trivial = "export default async ({ parameters, api }) => { api.log('n', parameters.n); };";
        for (int i = 0; i < 50; i++) {
            sandbox.run(trivial, Map.of("n", 1), limits, () -> false);
        }
        List<Double> runs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long start = System.nanoTime();
            sandbox.run(trivial, Map.of("n", 1), limits, () -> false);
            runs.add((System.nanoTime() - start) / 1e6);
        }
        System.out.printf("BENCH sandbox run of a trivial function: median %.2f ms%n", median(runs));

        String projectId = (String) createProject(ADMIN_KEY, "Bench " + UUID.randomUUID(), "en-US").get("_id");
        Map<String, Object> created = http.post().uri("/v2.0/functions").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "trivial", "code", trivial)).exchange()
                .expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody();
        String functionId = (String) created.get("_id");
        for (int i = 0; i < 5; i++) {
            times(trigger(functionId));
        }
        List<Double> toStart = new ArrayList<>();
        List<Double> toDone = new ArrayList<>();
        List<Double> roundTrip = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            long start = System.nanoTime();
            long[] t = times(trigger(functionId));
            roundTrip.add((System.nanoTime() - start) / 1e6);
            toStart.add((double) (t[1] - t[0]));
            toDone.add((double) (t[2] - t[0]));
        }
        System.out.printf("BENCH trigger-to-start median %.0f ms, trigger-to-done median %.0f ms, client POST-to-done "
                + "median %.0f ms (15 sequential runs after 5 warm-up)%n", median(toStart), median(toDone), median(roundTrip));

        int burst = Integer.getInteger("function.bench.burst", 100);
        int clients = Integer.getInteger("function.bench.clients", 4);
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        for (int i = 0; i < burst; i++) {
            pool.execute(() -> ids.add(trigger(functionId)));
        }
        pool.shutdown();
        pool.awaitTermination(5, java.util.concurrent.TimeUnit.MINUTES);
        long triggered = System.nanoTime();
        long last = 0;
        long first = Long.MAX_VALUE;
        for (String id : ids) {
            long[] t = times(id);
            first = Math.min(first, t[0]);
            last = Math.max(last, t[2]);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("BENCH burst of %d from " + clients + " clients: triggered in %.1f s, all done after %.1f s: %.1f instances/s "
                + "(event time, first trigger to last end: %.1f s)%n", burst, (triggered - start) / 1e9, seconds,
                burst / seconds, (last - first) / 1e3);
    }
}
