import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Call counter benchmark: ingests call records through the API in batches, then measures how long until the
 * counters are exact, then the latency of a one-month query.
 *
 * Run (JDK only): java deploy/bench/CallCounterBench.java [baseUrl] [records] [runs] [days] [batch] [senders] [queries]
 * defaults:       http://localhost:8080/new 1000000 3 60 10000 4 1000
 * with API_KEY set to a system administrator's key (e.g. BOOTSTRAP_API_KEY from .data/bootstrap.env).
 *
 * Each run creates its own organisation (its admin ingests; callIds are new), so runs do not disturb each other.
 * The data set is fixed by a seed per run: starts uniform over `days` days ending three days ago (all reported),
 * durations mostly minutes, some hours, 1% zero-length; every batch is a random sample, so batches arrive out of
 * order and every batch touches every day. Reported per run:
 *   - ingest: records / wall time from the first request to the last answer (`senders` concurrent requests);
 *   - exact:  time from the last answer until GET /v3.0/callcounter (with the newest X-Event-Position) equals the
 *             counters computed here (an independent sweep over the same records);
 *   - query:  p50/p99 of GET /v3.0/callcounter?year=Y&month=M over `queries` sequential requests after 100 warm-ups.
 * and the median of each over the runs.
 */
public class CallCounterBench {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    static String base;

    record Call(long start, long end, boolean billable, int project) {
    }

    record RunResult(double recordsPerSecond, double exactSeconds, double queryP50, double queryP99) {
    }

    public static void main(String[] args) throws Exception {
        base = args.length > 0 ? args[0] : "http://localhost:8080/new";
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int days = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        int batch = args.length > 4 ? Integer.parseInt(args[4]) : 10_000;
        int senders = args.length > 5 ? Integer.parseInt(args[5]) : 4;
        int queries = args.length > 6 ? Integer.parseInt(args[6]) : 1_000;
        String adminKey = System.getenv("API_KEY");
        if (adminKey == null || adminKey.isBlank()) {
            throw new IllegalStateException("Set API_KEY to a system administrator's API key");
        }
        System.out.printf("call counter bench: %,d records over %d days, batches of %,d, %d senders, %d runs, %s%n",
                records, days, batch, senders, runs, base);
        List<RunResult> results = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            RunResult result = run(run, adminKey, records, days, batch, senders, queries);
            results.add(result);
            System.out.printf("run %d: ingest %,.0f records/s, exact after %.2f s, one-month query p50 %.1f ms, p99 %.1f ms%n",
                    run, result.recordsPerSecond(), result.exactSeconds(), result.queryP50(), result.queryP99());
        }
        System.out.printf("median of %d runs: ingest %,.0f records/s, exact after %.2f s, query p50 %.1f ms, p99 %.1f ms%n",
                runs, median(results, RunResult::recordsPerSecond), median(results, RunResult::exactSeconds),
                median(results, RunResult::queryP50), median(results, RunResult::queryP99));
    }

    static RunResult run(int run, String adminKey, int records, int days, int batchSize, int senders, int queries)
            throws Exception {
        // ---- an organisation of its own, its admin's key, three projects
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String email = "bench-" + tag + "@example.com";
        String password = "bench-password-" + tag;
        expect(201, send("POST", "/management/v2.0/organisations", header("X-API-Key", adminKey),
                "{\"name\":\"call counter bench " + tag + "\",\"adminEmail\":\"" + email + "\",\"adminPassword\":\""
                        + password + "\"}"));
        String basic = "Basic " + Base64.getEncoder().encodeToString((email + ":" + password).getBytes(StandardCharsets.UTF_8));
        String key = field(expect(201, send("POST", "/v2.0/users/me/apikeys", header("Authorization", basic), "{}")), "key");
        String[] projects = new String[3];
        for (int p = 0; p < projects.length; p++) {
            projects[p] = field(expect(201, send("POST", "/v2.0/projects", header("X-API-Key", key),
                    "{\"name\":\"bench " + p + "\",\"locale\":\"en-US\"}")), "_id");
        }

        // ---- the data set, its batches (pre-rendered), and the counters it must produce
        LocalDate last = LocalDate.now(ZoneOffset.UTC).minusDays(3);
        LocalDate first = last.minusDays(days - 1);
        long windowStart = first.atStartOfDay().toEpochSecond(ZoneOffset.UTC);
        Random random = new Random(1_000L + run);
        Call[] calls = new Call[records];
        for (int i = 0; i < records; i++) {
            long start = windowStart + (long) (random.nextDouble() * days * 86_400L);
            int kind = random.nextInt(100);
            long duration = kind < 1 ? 0 : kind < 90 ? 10 + random.nextInt(890) : kind < 99 ? 900 + random.nextInt(2_700)
                    : 3_600 + random.nextInt(3 * 3_600);
            calls[i] = new Call(start, start + duration, random.nextInt(10) < 7, random.nextInt(projects.length));
        }
        List<byte[]> bodies = new ArrayList<>();
        for (int from = 0; from < records; from += batchSize) {
            StringBuilder body = new StringBuilder(batchSize * 120).append("{\"records\":[");
            for (int i = from; i < Math.min(records, from + batchSize); i++) {
                Call call = calls[i];
                if (i > from) {
                    body.append(',');
                }
                body.append("{\"callId\":\"c").append(i).append("\",\"projectId\":\"").append(projects[call.project()])
                        .append("\",\"startedAt\":").append(call.start()).append(",\"endedAt\":").append(call.end())
                        .append(",\"billable\":").append(call.billable()).append('}');
            }
            bodies.add(body.append("]}").toString().getBytes(StandardCharsets.UTF_8));
        }
        List<long[]> expected = expected(calls, first, last);

        // ---- ingest
        AtomicInteger next = new AtomicInteger();
        AtomicLong position = new AtomicLong();
        AtomicLong ingested = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        long started = System.nanoTime();
        List<Future<?>> workers = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            workers.add(pool.submit(() -> {
                for (int b = next.getAndIncrement(); b < bodies.size(); b = next.getAndIncrement()) {
                    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/management/v2.0/callrecords"))
                            .header("X-API-Key", key).header("Accept", "application/json")
                            .header("Content-Type", "application/json").timeout(Duration.ofSeconds(120))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(b))).build(),
                            HttpResponse.BodyHandlers.ofString());
                    expect(200, answer);
                    ingested.addAndGet(Long.parseLong(number(answer.body(), "ingested")));
                    long at = Long.parseLong(answer.headers().firstValue("X-Event-Position").orElse("0"));
                    position.accumulateAndGet(at, Math::max);
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        long ingestDone = System.nanoTime();
        pool.shutdown();
        if (ingested.get() != records) {
            throw new IllegalStateException("ingested " + ingested.get() + " of " + records + " records");
        }
        double ingestSeconds = (ingestDone - started) / 1e9;

        // ---- until the counters are exact
        String range = "/v3.0/callcounter?from=" + first + "&to=" + last;
        List<long[]> actual = null;
        while (true) {
            HttpResponse<String> answer = send("GET", range, header("X-API-Key", key, "X-Event-Position",
                    Long.toString(position.get())), null);
            // a 503 with Retry-After: the projection had not counted what was sent within the read's bound; not yet
            if (answer.statusCode() != 503 || answer.headers().firstValue("Retry-After").isEmpty()) {
                expect(200, answer);
                actual = items(answer.body());
                if (same(expected, actual)) {
                    break;
                }
            }
            if (System.nanoTime() - ingestDone > 600_000_000_000L) {
                throw new IllegalStateException("counters not exact after 10 minutes; " + (actual == null
                        ? "every answer was a 503" : "first difference: " + difference(expected, actual)));
            }
            Thread.sleep(50);
        }
        double exactSeconds = (System.nanoTime() - ingestDone) / 1e9;

        // ---- one-month query latency
        YearMonth month = YearMonth.from(first.plusDays(days / 2));
        String monthQuery = "/v3.0/callcounter?year=" + month.getYear() + "&month=" + month.getMonthValue();
        for (int i = 0; i < 100; i++) {
            expect(200, send("GET", monthQuery, header("X-API-Key", key), null));
        }
        List<Double> latencies = new ArrayList<>(queries);
        for (int i = 0; i < queries; i++) {
            long t0 = System.nanoTime();
            expect(200, send("GET", monthQuery, header("X-API-Key", key), null));
            latencies.add((System.nanoTime() - t0) / 1e6);
        }
        Collections.sort(latencies);
        return new RunResult(records / ingestSeconds, exactSeconds, percentile(latencies, 50), percentile(latencies, 99));
    }

    /** The counters by an independent sweep: per day {maxConcurrency, callMinutes, processedCalls, billableCalls}. */
    static List<long[]> expected(Call[] calls, LocalDate first, LocalDate last) {
        long firstDay = first.toEpochDay();
        int dayCount = (int) (last.toEpochDay() - firstDay + 1);
        long[][] days = new long[dayCount][4];
        long[] changes = new long[calls.length * 2];
        int n = 0;
        for (Call call : calls) {
            int day = (int) (Math.floorDiv(call.start(), 86_400L) - firstDay);
            if (day >= 0 && day < dayCount) {
                long seconds = call.end() - call.start();
                days[day][1] += (seconds + 59) / 60;
                days[day][2]++;
                days[day][3] += call.billable() ? 1 : 0;
            }
            if (call.end() > call.start()) {
                // time * 2 + 0 for an end, + 1 for a start: at equal times ends sort first (no overlap).
                changes[n++] = call.start() * 2 + 1;
                changes[n++] = call.end() * 2;
            }
        }
        long[] sorted = Arrays.copyOf(changes, n);
        Arrays.sort(sorted);
        int i = 0;
        long running = 0;
        for (int d = 0; d < dayCount; d++) {
            long dayStart = (firstDay + d) * 86_400L;
            long dayEnd = dayStart + 86_400L;
            while (i < n && sorted[i] / 2 <= dayStart) {
                running += (sorted[i] % 2 == 1) ? 1 : -1;
                i++;
            }
            long max = running;
            while (i < n && sorted[i] / 2 < dayEnd) {
                long time = sorted[i] / 2;
                while (i < n && sorted[i] / 2 == time) {
                    running += (sorted[i] % 2 == 1) ? 1 : -1;
                    i++;
                }
                max = Math.max(max, running);
            }
            days[d][0] = max;
        }
        return Arrays.asList(days);
    }

    // ---- HTTP and a little JSON

    static Map<String, String> header(String... pairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.put(pairs[i], pairs[i + 1]);
        }
        return headers;
    }

    static HttpResponse<String> send(String method, String path, Map<String, String> headers, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Accept", "application/json").timeout(Duration.ofSeconds(30));
        headers.forEach(request::header);
        if (body != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String expect(int status, HttpResponse<String> answer) {
        if (answer.statusCode() != status) {
            String body = answer.body();
            throw new IllegalStateException(answer.request().method() + " " + answer.request().uri() + " answered "
                    + answer.statusCode() + ": " + (body.length() > 500 ? body.substring(0, 500) + "..." : body));
        }
        return answer.body();
    }

    static String field(String json, String name) {
        String marker = "\"" + name + "\":\"";
        int start = json.indexOf(marker) + marker.length();
        return json.substring(start, json.indexOf('"', start));
    }

    static String number(String json, String name) {
        String marker = "\"" + name + "\":";
        int start = json.indexOf(marker) + marker.length();
        int end = start;
        while (end < json.length() && (Character.isDigit(json.charAt(end)) || json.charAt(end) == '-')) {
            end++;
        }
        return json.substring(start, end);
    }

    /** The items of a call counter answer as {maxConcurrency, callMinutes, processedCalls, billableCalls}. */
    static List<long[]> items(String json) {
        List<long[]> items = new ArrayList<>();
        int at = json.indexOf("\"items\"");
        while ((at = json.indexOf('{', at + 1)) >= 0) {
            int end = json.indexOf('}', at);
            String item = json.substring(at, end + 1);
            items.add(new long[] {Long.parseLong(number(item, "maxConcurrency")), Long.parseLong(number(item, "callMinutes")),
                    Long.parseLong(number(item, "processedCalls")), Long.parseLong(number(item, "billableCalls"))});
            at = end;
        }
        return items;
    }

    static boolean same(List<long[]> expected, List<long[]> actual) {
        if (expected.size() != actual.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!Arrays.equals(expected.get(i), actual.get(i))) {
                return false;
            }
        }
        return true;
    }

    static String difference(List<long[]> expected, List<long[]> actual) {
        if (expected.size() != actual.size()) {
            return expected.size() + " days expected, " + actual.size() + " answered";
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!Arrays.equals(expected.get(i), actual.get(i))) {
                return "day " + i + ": expected " + Arrays.toString(expected.get(i)) + ", got " + Arrays.toString(actual.get(i));
            }
        }
        return "none";
    }

    static double percentile(List<Double> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    static double median(List<RunResult> results, java.util.function.ToDoubleFunction<RunResult> metric) {
        double[] values = results.stream().mapToDouble(metric).sorted().toArray();
        return values[values.length / 2];
    }
}
