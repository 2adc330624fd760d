import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Read-after-write lag: after each PATCH of a locale returns, how long until a GET through the same base URL
 * shows the change (no X-Event-Position, i.e. what a client sees without asking to wait).
 *
 * Run (JDK only): java deploy/bench/ReadAfterWriteLag.java [baseUrl] [patches] [runs] [warmup]
 * with API_KEY set, e.g. from .data/bootstrap.env. Prints p50/p99/max per run and the median over runs.
 */
public class ReadAfterWriteLag {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static String base;
    static String key;

    public static void main(String[] args) throws Exception {
        base = args.length > 0 ? args[0] : "http://localhost:8080/new";
        int patches = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        key = System.getenv("API_KEY");
        if (key == null || key.isBlank()) {
            throw new IllegalStateException("Set API_KEY");
        }
        String project = send("POST", "/v2.0/projects", "{\"name\":\"lag bench\",\"locale\":\"en-US\"}").body();
        String projectId = field(project, "_id");
        String locale = field(project, "primaryLocaleReference");
        try {
            measure(locale, "warmup", warmup);
            List<Double> p50s = new ArrayList<>();
            List<Double> p99s = new ArrayList<>();
            for (int run = 1; run <= runs; run++) {
                List<Double> lags = measure(locale, "run" + run, patches);
                Collections.sort(lags);
                double p50 = percentile(lags, 50);
                double p99 = percentile(lags, 99);
                p50s.add(p50);
                p99s.add(p99);
                System.out.printf("run %d: %d patches, lag p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                        run, patches, p50, p99, lags.get(lags.size() - 1));
            }
            Collections.sort(p50s);
            Collections.sort(p99s);
            System.out.printf("median of %d runs: p50 %.1f ms (runs %s), p99 %.1f ms (runs %s)%n", runs,
                    p50s.get(runs / 2), p50s, p99s.get(runs / 2), p99s);
        } finally {
            send("DELETE", "/v2.0/projects/" + projectId, null);
        }
    }

    static List<Double> measure(String locale, String label, int count) throws Exception {
        List<Double> lags = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = "lag-" + label + "-" + i;
            HttpResponse<String> patch = send("PATCH", "/v2.0/locales/" + locale, "{\"name\":\"" + name + "\"}");
            if (patch.statusCode() != 200) {
                throw new IllegalStateException("PATCH answered " + patch.statusCode() + ": " + patch.body());
            }
            long written = System.nanoTime();
            while (true) {
                HttpResponse<String> read = send("GET", "/v2.0/locales/" + locale, null);
                if (read.statusCode() == 200 && name.equals(field(read.body(), "name"))) {
                    break;
                }
                if (System.nanoTime() - written > 10_000_000_000L) {
                    throw new IllegalStateException("change not visible after 10 s");
                }
            }
            lags.add((System.nanoTime() - written) / 1e6);
        }
        return lags;
    }

    static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("X-API-Key", key)
                .header("Accept", "application/json")
                .timeout(Duration.ofSeconds(10));
        if (body != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Enough JSON for flat string fields of our own responses. */
    static String field(String json, String name) {
        String marker = "\"" + name + "\":\"";
        int start = json.indexOf(marker);
        if (start < 0) {
            return null;
        }
        start += marker.length();
        return json.substring(start, json.indexOf('"', start));
    }

    static double percentile(List<Double> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
