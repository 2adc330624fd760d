import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Read-your-writes, as a script without headers sees it: each round PATCHes a locale to a new name and at once
 * GETs it (no X-Event-Position), through the same base URL. Per run it prints the write-then-read latency (from
 * sending the PATCH to the GET's answer) and the read's own latency (p50/p99), how many reads had to wait
 * (Server-Timing ryw) and how many were stale (must be 0). With a second URL, a query replica started with
 * READ_YOUR_WRITES=false, it also prints the lag another principal sees there: from the PATCH's answer until a
 * GET without any wait shows the new name (p50/p99).
 *
 * Run (JDK only): java deploy/bench/ReadYourWritesBench.java baseUrl [pairs] [runs] [warmup] [othersUrl]
 * with API_KEY set. Prints one line per run and the median over runs.
 */
public class ReadYourWritesBench {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static String key;

    record Run(List<Double> pair, List<Double> read, int waited, int stale, List<Double> othersLag) {
    }

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://localhost:8080/new";
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        String others = args.length > 4 ? args[4] : null;
        key = System.getenv("API_KEY");
        if (key == null || key.isBlank()) {
            throw new IllegalStateException("Set API_KEY");
        }
        String project = send("POST", base + "/v2.0/projects", "{\"name\":\"ryw bench\",\"locale\":\"en-US\"}").body();
        String projectId = field(project, "_id");
        String locale = field(project, "primaryLocaleReference");
        try {
            measure(base, others, locale, "warmup", warmup);
            List<Double> pairP50 = new ArrayList<>(), pairP99 = new ArrayList<>(), readP50 = new ArrayList<>(),
                    readP99 = new ArrayList<>(), lagP50 = new ArrayList<>(), lagP99 = new ArrayList<>();
            int stale = 0;
            for (int run = 1; run <= runs; run++) {
                Run r = measure(base, others, locale, "run" + run, pairs);
                stale += r.stale();
                pairP50.add(percentile(r.pair(), 50));
                pairP99.add(percentile(r.pair(), 99));
                readP50.add(percentile(r.read(), 50));
                readP99.add(percentile(r.read(), 99));
                String lag = "";
                if (!r.othersLag().isEmpty()) {
                    lagP50.add(percentile(r.othersLag(), 50));
                    lagP99.add(percentile(r.othersLag(), 99));
                    lag = String.format(", another principal's lag p50 %.1f ms p99 %.1f ms",
                            percentile(r.othersLag(), 50), percentile(r.othersLag(), 99));
                }
                System.out.printf("run %d: %d pairs, write-then-read p50 %.1f ms p99 %.1f ms, read p50 %.1f ms "
                                + "p99 %.1f ms, waited %d (%.1f%%), stale %d%s%n", run, pairs,
                        percentile(r.pair(), 50), percentile(r.pair(), 99), percentile(r.read(), 50),
                        percentile(r.read(), 99), r.waited(), 100.0 * r.waited() / pairs, r.stale(), lag);
            }
            System.out.printf("median of %d runs: write-then-read p50 %.1f ms p99 %.1f ms, read p50 %.1f ms p99 %.1f ms"
                            + "%s; stale reads in all runs: %d%n", runs, median(pairP50), median(pairP99),
                    median(readP50), median(readP99), lagP50.isEmpty() ? "" : String.format(
                            ", another principal's lag p50 %.1f ms p99 %.1f ms", median(lagP50), median(lagP99)), stale);
        } finally {
            send("DELETE", base + "/v2.0/projects/" + projectId, null);
        }
    }

    static Run measure(String base, String others, String locale, String label, int count) throws Exception {
        List<Double> pair = new ArrayList<>(count), read = new ArrayList<>(count), lag = new ArrayList<>();
        int waited = 0, stale = 0;
        for (int i = 0; i < count; i++) {
            String name = label + "-" + i + "-" + System.nanoTime();
            long start = System.nanoTime();
            HttpResponse<String> patched = send("PATCH", base + "/v2.0/locales/" + locale, "{\"name\":\"" + name + "\"}");
            long written = System.nanoTime();
            if (patched.statusCode() != 200) {
                throw new IllegalStateException("PATCH answered " + patched.statusCode() + ": " + patched.body());
            }
            HttpResponse<String> got = send("GET", base + "/v2.0/locales/" + locale, null);
            long answered = System.nanoTime();
            pair.add((answered - start) / 1e6);
            read.add((answered - written) / 1e6);
            if (got.statusCode() != 200 || !name.equals(field(got.body(), "name"))) {
                stale++;
            }
            if (got.headers().allValues("Server-Timing").stream().anyMatch(v -> v.startsWith("ryw"))) {
                waited++;
            }
            if (others != null && i % 10 == 0) {
                // another principal's view: a replica that never waits, polled until it shows the new name
                while (!name.equals(field(send("GET", others + "/v2.0/locales/" + locale, null).body(), "name"))) {
                    Thread.onSpinWait();
                }
                lag.add((System.nanoTime() - written) / 1e6);
            }
        }
        return new Run(pair, read, waited, stale, lag);
    }

    static HttpResponse<String> send(String method, String url, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("X-API-Key", key)
                .header("Accept", "application/json");
        if (body != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"");
        if (at < 0) {
            return null;
        }
        int from = at + name.length() + 4;
        return json.substring(from, json.indexOf('"', from));
    }

    static double percentile(List<Double> values, int p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
