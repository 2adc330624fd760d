import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * GET /v2.0/eventlog figures (issue 11).
 * <p>
 * Replay: seeds EVENTS events into the API key's organisation (straight into the event store, in portions of
 * 20,000; the running query service projects them into its log like any others), then reads the organisation's log from the
 * first seeded position as NDJSON over loopback, against a same-run baseline: the same rows of domain_event_entry
 * read with plain JDBC (every column, fetch size 1000). Runs alternate; the median of RUNS after one warm-up of each.
 * While a replay streams, the query service's heap is sampled (jstat) to show it stays flat.
 * <p>
 * Tail latency: follows the log as text/event-stream, renames a locale PAIRS times one after another through the
 * gateway, and takes from each PATCH's answer to its LocaleUpdated event on the stream (p50/p99; 0 when the event
 * arrived before the answer).
 * <p>
 * Run: deploy/bench/eventlog.sh (it puts the PostgreSQL driver on the class path). Args: queryUrl gatewayUrl jdbcUrl
 * user password events runs pairs queryPid
 */
public class EventLogBench {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final long PORTION = 20_000;
    static String key;

    public static void main(String[] args) throws Exception {
        String query = args[0];
        String gateway = args[1];
        String jdbcUrl = args[2];
        String user = args[3];
        String password = args[4];
        long events = Long.parseLong(args[5]);
        int runs = Integer.parseInt(args[6]);
        int pairs = Integer.parseInt(args[7]);
        String queryPid = args.length > 8 ? args[8] : "";
        key = System.getenv("API_KEY");
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password.isEmpty() ? null : password)) {
            String org = organisation(db);
            long before = head(db, org);
            // In portions, each projected before the next: a single 1M-event burst lets the processors that skip
            // most events race ahead of those that handle each, and the shared event cache between them outgrows a
            // 512 MB query service (noted in the closing note of issue 11).
            long started = System.nanoTime();
            long seededFrom = -1;
            for (long done = 0; done < events; done += PORTION) {
                long portion = Math.min(PORTION, events - done);
                long first = seed(db, org, portion, done);
                seededFrom = seededFrom < 0 ? first : seededFrom;
                while (head(db, org) < before + done + portion) {
                    Thread.sleep(100);
                }
            }
            double projectSeconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("seeded %,d events (global %d..%d) in portions of %,d; each projected into the log "
                    + "before the next: %.1f s (%.0f events/s)%n", events, seededFrom, seededFrom + events - 1, PORTION,
                    projectSeconds, events / projectSeconds);
            long fromPosition = before + 1;

            System.out.println("warm-up");
            jdbc(db, seededFrom, events);
            ndjson(query, fromPosition, null);
            List<Double> base = new ArrayList<>();
            List<Double> api = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            System.out.printf("%-4s %14s %14s %8s %18s%n", "run", "jdbc ev/s", "ndjson ev/s", "ratio", "heap used MB");
            for (int run = 1; run <= runs; run++) {
                double b = jdbc(db, seededFrom, events);
                HeapSampler heap = new HeapSampler(queryPid);
                heap.start();
                double a = ndjson(query, fromPosition, events);
                heap.interrupt();
                heap.join();
                base.add(b);
                api.add(a);
                ratios.add(a / b);
                System.out.printf("%-4d %,14.0f %,14.0f %8.3f %18s%n", run, b, a, a / b, heap.summary());
            }
            System.out.printf("median %,14.0f %,14.0f %8.3f%n", median(base), median(api), median(ratios));
        }
        if (pairs > 0) {
            tail(query, gateway, pairs);
        }
    }

    static String organisation(Connection db) throws Exception {
        try (PreparedStatement s = db.prepareStatement("SELECT organisation_id FROM identity_api_key "
                + "WHERE key_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')")) {
            s.setString(1, key);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("API_KEY is not a key of this database");
                }
                return r.getString(1);
            }
        }
    }

    static long head(Connection db, String org) throws Exception {
        try (PreparedStatement s = db.prepareStatement("SELECT coalesce(max(position), 0) FROM event_log WHERE organisation_id = ?")) {
            s.setString(1, org);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /**
     * TokenUpdatedEvents of 1,000 tokens that do not exist (the token projection's update finds no row; no actor, so
     * no audit event): an event of the usual size (about 330 bytes of payload). Answers the first global index.
     */
    static long seed(Connection db, String org, long events, long offset) throws Exception {
        // Aggregate ids of this run and portion only, so every portion seeds new aggregates.
        String prefix = "b" + Long.toHexString((System.currentTimeMillis() + offset) & 0xffffff);
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TEMP TABLE seeded AS SELECT max(global_index) AS before FROM domain_event_entry");
            String sql = "INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type, "
                    + "time_stamp, payload_type, payload_revision, payload, meta_data) "
                    + "SELECT gen_random_uuid()::text, '" + prefix + "' || lpad(to_hex(i % 1000), 17, '0'), i / 1000, "
                    + "'TokenAggregate', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), "
                    + "'ai.convo.contract.token.TokenUpdatedEvent', NULL, convert_to(json_build_object("
                    + "'tokenId', '" + prefix + "' || lpad(to_hex(i % 1000), 17, '0'), 'projectId', 'benchproject000000000000', "
                    + "'organisationId', '" + org + "', 'changedFields', json_build_array('script'), "
                    + "'label', 'Bench token ' || (i % 1000), 'type', 'custom', "
                    + "'script', 'return \"hello from the bench, event ' || i || '\";', "
                    + "'changedBy', NULL, 'changedAt', 1700000000 + i)::text, 'UTF8'), convert_to('{}', 'UTF8') "
                    + "FROM generate_series(0, " + (events - 1) + ") AS i";
            s.execute(sql);
            try (ResultSet r = s.executeQuery("SELECT coalesce(before, 0) + 1 FROM seeded")) {
                r.next();
                long first = r.getLong(1);
                s.execute("DROP TABLE seeded");
                return first;
            }
        }
    }

    /** Events per second reading the seeded rows with plain JDBC, every column touched. */
    static double jdbc(Connection db, long from, long events) throws Exception {
        long started = System.nanoTime();
        long rows = 0;
        long bytes = 0;
        db.setAutoCommit(false);
        try (PreparedStatement s = db.prepareStatement("SELECT global_index, event_identifier, aggregate_identifier, "
                + "sequence_number, type, time_stamp, payload_type, payload_revision, payload, meta_data "
                + "FROM domain_event_entry WHERE global_index >= ? AND global_index < ? ORDER BY global_index")) {
            s.setFetchSize(1000);
            s.setLong(1, from);
            s.setLong(2, from + events);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows++;
                    bytes += r.getLong(1) + r.getString(2).length() + r.getString(3).length() + r.getLong(4)
                            + r.getString(5).length() + r.getString(6).length() + r.getString(7).length()
                            + r.getBytes(9).length + r.getBytes(10).length;
                    r.getString(8);
                }
            }
        } finally {
            db.commit();
            db.setAutoCommit(true);
        }
        if (rows != events || bytes == 0) {
            throw new IllegalStateException("read " + rows + " rows, expected " + events);
        }
        return rows / ((System.nanoTime() - started) / 1e9);
    }

    /** Events per second of GET /v2.0/eventlog as NDJSON from {@code from} to the end; checks the count. */
    static double ndjson(String query, long from, Long expected) throws Exception {
        long started = System.nanoTime();
        HttpResponse<InputStream> response = HTTP.send(HttpRequest.newBuilder(URI.create(query + "/v2.0/eventlog?from=" + from))
                .header("X-API-Key", key).header("Accept", "application/x-ndjson").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("eventlog answered " + response.statusCode());
        }
        long lines = 0;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = response.body()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
            }
        }
        if (expected != null && lines < expected) {
            throw new IllegalStateException("the stream ended after " + lines + " events, expected " + expected);
        }
        return lines / ((System.nanoTime() - started) / 1e9);
    }

    /** The query service's heap (young + old used, jstat) every 250 ms while a replay streams. */
    static final class HeapSampler extends Thread {
        private final String pid;
        private final List<Double> samples = Collections.synchronizedList(new ArrayList<>());

        HeapSampler(String pid) {
            this.pid = pid;
            setDaemon(true);
        }

        @Override
        public void run() {
            if (pid.isEmpty()) {
                return;
            }
            try {
                while (!isInterrupted()) {
                    Process p = new ProcessBuilder("jstat", "-gc", pid).redirectErrorStream(true).start();
                    List<String> out = new BufferedReader(new InputStreamReader(p.getInputStream())).lines().toList();
                    p.waitFor();
                    if (out.size() >= 2) {
                        String[] head = out.get(0).trim().split("\\s+");
                        String[] values = out.get(1).trim().split("\\s+");
                        double used = 0;
                        for (int i = 0; i < head.length && i < values.length; i++) {
                            if (head[i].equals("EU") || head[i].equals("OU") || head[i].equals("S0U") || head[i].equals("S1U")) {
                                used += Double.parseDouble(values[i]);
                            }
                        }
                        samples.add(used / 1024);
                    }
                    Thread.sleep(250);
                }
            } catch (InterruptedException | IOException ignored) {
                // done
            }
        }

        String summary() {
            if (samples.isEmpty()) {
                return "n/a";
            }
            List<Double> sorted = new ArrayList<>(samples);
            Collections.sort(sorted);
            return String.format("min %.0f max %.0f", sorted.get(0), sorted.get(sorted.size() - 1));
        }
    }

    static void tail(String query, String gateway, int pairs) throws Exception {
        String project = send("POST", gateway + "/v2.0/projects", "{\"name\":\"eventlog tail bench\",\"locale\":\"en-US\"}");
        String locale = field(project, "primaryLocaleReference");
        BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
        HttpResponse<java.util.stream.Stream<String>> stream = HTTP.send(HttpRequest.newBuilder(
                        URI.create(query + "/v2.0/eventlog?type=LocaleUpdated&resourceId=" + locale))
                .header("X-API-Key", key).header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
        Thread reader = new Thread(() -> stream.body().forEach(line -> {
            if (line.startsWith("data:")) {
                arrivals.add(System.nanoTime());
            }
        }));
        reader.setDaemon(true);
        reader.start();
        List<Double> latencies = new ArrayList<>();
        for (int i = 0; i < pairs + 50; i++) {
            send("PATCH", gateway + "/v2.0/locales/" + locale, "{\"name\":\"tail " + i + "\"}");
            long answered = System.nanoTime();
            Long arrived = arrivals.poll(10, TimeUnit.SECONDS);
            if (arrived == null) {
                throw new IllegalStateException("no event on the stream within 10 s for PATCH " + i);
            }
            if (i >= 50) { // the first 50 warm up
                latencies.add(Math.max(0, arrived - answered) / 1e6);
            }
        }
        Collections.sort(latencies);
        System.out.printf("tail latency over %d PATCHes (answer -> event on the stream): p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                pairs, percentile(latencies, 50), percentile(latencies, 99), latencies.get(latencies.size() - 1));
    }

    static String send(String method, String url, String body) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).method(method,
                        HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .header("X-API-Key", key).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"");
        int start = at + name.length() + 4;
        return json.substring(start, json.indexOf('"', start));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    static double percentile(List<Double> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100 * sorted.size()) - 1));
    }
}
