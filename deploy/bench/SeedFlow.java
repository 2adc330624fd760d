import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Seeds one flow with many intents and sentences through the public API (the write path as clients use it).
 * Deterministic text (fixed seed, Zipf-like vocabulary). Prints the flow id on the last line.
 *
 * Run: API_KEY=... java deploy/bench/SeedFlow.java [baseUrl] [intents] [sentencesPerIntent] [parallel]
 */
public class SeedFlow {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static String base;
    static String key;

    public static void main(String[] args) throws Exception {
        base = args.length > 0 ? args[0] : "http://localhost:8080/new";
        int intents = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int perIntent = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int parallel = args.length > 3 ? Integer.parseInt(args[3]) : 16;
        key = System.getenv("API_KEY");
        String project = call("POST", "/v2.0/projects", "{\"name\":\"bench " + System.currentTimeMillis() + "\",\"locale\":\"en-US\"}");
        String projectId = field(project, "_id");
        String localeId = field(project, "primaryLocaleReference");
        String flowId = field(call("POST", "/v2.0/flows", "{\"projectId\":\"" + projectId + "\",\"name\":\"bench flow\"}"), "_id");
        Random random = new Random(42);
        String[] words = new String[5000];
        for (int i = 0; i < words.length; i++) {
            words[i] = "w" + Integer.toString(i, 36);
        }
        long start = System.nanoTime();
        Semaphore inFlight = new Semaphore(parallel);
        List<CompletableFuture<String>> created = new ArrayList<>();
        for (int i = 0; i < intents; i++) {
            inFlight.acquire();
            String body = "{\"name\":\"intent " + i + "\",\"description\":\"seeded intent " + i + "\",\"tags\":[\"t"
                    + (i % 10) + "\"]}";
            created.add(send("POST", "/v2.0/flows/" + flowId + "/intents", body)
                    .whenComplete((r, e) -> inFlight.release())
                    .thenApply(r -> field(r, "_id")));
        }
        List<String> intentIds = new ArrayList<>();
        for (CompletableFuture<String> future : created) {
            intentIds.add(future.join());
        }
        System.out.printf("%d intents in %.1f s%n", intents, (System.nanoTime() - start) / 1e9);
        start = System.nanoTime();
        List<CompletableFuture<String>> sentences = new ArrayList<>();
        for (int s = 0; s < perIntent; s++) {
            for (int i = 0; i < intentIds.size(); i++) {
                StringBuilder text = new StringBuilder();
                int length = 3 + random.nextInt(6);
                for (int w = 0; w < length; w++) {
                    // Zipf-like: small indexes far more often; each intent also has its own words.
                    int index = w == 0 ? (i * 7 + s) % words.length : (int) Math.min(words.length - 1,
                            Math.floor(Math.pow(words.length, random.nextDouble())));
                    text.append(w == 0 ? "" : " ").append(words[index]);
                }
                inFlight.acquire();
                sentences.add(send("POST", "/v2.0/flows/" + flowId + "/intents/" + intentIds.get(i) + "/sentences",
                        "{\"text\":\"" + text + "\",\"localeId\":\"" + localeId + "\"}")
                        .whenComplete((r, e) -> inFlight.release()));
            }
        }
        sentences.forEach(CompletableFuture::join);
        System.out.printf("%d sentences in %.1f s%n", sentences.size(), (System.nanoTime() - start) / 1e9);
        System.out.println(flowId);
    }

    static CompletableFuture<String> send(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("X-API-Key", key).header("Content-Type", "application/json").header("Accept", "application/json")
                .timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
            if (response.statusCode() >= 300) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return response.body();
        });
    }

    static String call(String method, String path, String body) {
        return send(method, path, body).join();
    }

    static String field(String json, String name) {
        String marker = "\"" + name + "\":\"";
        int start = json.indexOf(marker) + marker.length();
        return json.substring(start, json.indexOf('"', start));
    }
}
