import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Projection rebuild figures (issue 12), against a running stack:
 * <ul>
 * <li>Seeds EVENTS events into the API key's organisation (straight into the event store, in portions of 20,000, each
 * projected by the live processors before the next): per 1,000 events one project (ProjectCreatedEvent), 99 tokens
 * (TokenCreatedEvent) and 900 changes of them (TokenUpdatedEvent), about 330 bytes of payload each.</li>
 * <li>Baseline: reading the same rows with plain JDBC (every column), in the same run, before each rebuild, after
 * reads until two in a row agree (its JIT settles only after five or six).</li>
 * <li>Rebuilds PROJECTIONS (each in turn: unmeasured until two rebuilds agree within 5%, at most WARM_UPS times, then
 * RUNS times) through the management API and reports events/s of the whole
 * rebuild (request to switch), the ratio to the baseline, the query service's peak heap, the switch's write and read
 * pauses, and the latency of reads of one token through the gateway all through the rebuild.</li>
 * </ul>
 */
public class RebuildBench {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final long PORTION = 20_000;
    static String key;
    static String user;

    public static void main(String[] args) throws Exception {
        String gateway = args[0];
        String jdbcUrl = args[1];
        String user = args[2];
        String password = args[3];
        long events = Long.parseLong(args[4]);
        int runs = Integer.parseInt(args[5]);
        String[] projections = args[6].split(",");
        String queryPid = args.length > 7 ? args[7] : "";
        key = System.getenv("API_KEY");
        String user0 = user;
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password.isEmpty() ? null : password)) {
            String org = scalar(db, "SELECT organisation_id FROM identity_api_key WHERE key_hash = "
                    + "encode(sha256(convert_to('" + key + "', 'UTF8')), 'hex')");
            user = scalar(db, "SELECT user_id FROM identity_api_key WHERE key_hash = "
                    + "encode(sha256(convert_to('" + key + "', 'UTF8')), 'hex')");
            long seededFrom;
            long existing = Long.parseLong(scalar(db, "SELECT count(*) FROM domain_event_entry"));
            if (existing >= events) {
                seededFrom = Long.parseLong(scalar(db, "SELECT min(global_index) FROM domain_event_entry"));
                System.out.printf("the store already holds %,d events; no seeding%n", existing);
            } else {
                long started = System.nanoTime();
                seededFrom = -1;
                for (long done = 0; done < events - existing; done += PORTION) {
                    long portion = Math.min(PORTION, events - existing - done);
                    long first = seed(db, org, portion, done);
                    seededFrom = seededFrom < 0 ? first : seededFrom;
                    awaitProjected(db);
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf("seeded %,d events in portions of %,d, each projected live before the next: %.1f s "
                        + "(%.0f events/s through every live processor)%n", events - existing, PORTION, seconds,
                        (events - existing) / seconds);
            }
            long total = Long.parseLong(scalar(db, "SELECT count(*) FROM domain_event_entry"));
            String sampleToken = scalar(db, "SELECT id || '|' || project_id FROM token_view WHERE NOT is_default LIMIT 1");
            // The baseline's JIT settles only after several reads of the whole log (on this machine the fifth or sixth
            // read was 2.5x the first): read until two reads in a row agree within 10%, at least six times.
            List<Double> warmUp = new ArrayList<>();
            do {
                warmUp.add(jdbc(db, total));
            } while (warmUp.size() < 15 && (warmUp.size() < 6 || Math.abs(warmUp.get(warmUp.size() - 1)
                    - warmUp.get(warmUp.size() - 2)) > 0.1 * warmUp.get(warmUp.size() - 1)));
            System.out.printf("warm-up: baseline reads %s events/s%n",
                    warmUp.stream().map(r -> String.format("%,.0f", r)).toList());
            System.out.printf("%-24s %-4s %12s %12s %7s %10s %10s %10s %16s %18s%n", "projection", "run", "jdbc ev/s",
                    "rebuild ev/s", "ratio", "seconds", "writes ms", "reads ms", "heap MB max", "read p50/p99/max ms");
            for (String projection : projections) {
                List<Double> ratios = new ArrayList<>();
                List<Double> rates = new ArrayList<>();
                List<Double> bases = new ArrayList<>();
                if (!projection.equals("eventlog-floor") && !projection.equals("catch-up")) {
                    // Unmeasured rebuilds until two in a row agree within 5% (at most WARM_UPS, 3), as the baseline's
                    // reads: the first rebuilds after a start run on a JIT that is still compiling.
                    List<Double> warm = new ArrayList<>();
                    int most = Integer.parseInt(System.getenv().getOrDefault("WARM_UPS", "3"));
                    while (warm.size() < most && (warm.size() < 2 || Math.abs(warm.get(warm.size() - 1)
                            / warm.get(warm.size() - 2) - 1) > 0.05)) {
                        long started = System.nanoTime();
                        awaitDone(db, rebuild(gateway, projection));
                        warm.add((System.nanoTime() - started) / 1e9);
                    }
                    System.out.printf("%-24s %-4s %s s (warm-up, not counted)%n", projection, "w",
                            warm.stream().map(w -> String.format("%.1f", w)).toList());
                }
                for (int run = 1; run <= runs; run++) {
                    if (projection.equals("eventlog-floor")) {
                        double base = jdbc(db, total);
                        double seconds = eventLogFloor(jdbcUrl, user0, password);
                        double rate = total / seconds;
                        bases.add(base);
                        rates.add(rate);
                        ratios.add(rate / base);
                        System.out.printf("%-24s %-4d %,12.0f %,12.0f %7.3f %10.1f%n", projection, run, base, rate,
                                rate / base, seconds);
                        continue;
                    }
                    if (projection.equals("catch-up")) {
                        double base = jdbc(db, total);
                        double[] caught = catchUp(db, org, queryPid, Long.parseLong(System.getenv()
                                .getOrDefault("CATCHUP_EVENTS", "200000")));
                        bases.add(base);
                        rates.add(caught[1]);
                        ratios.add(caught[1] / base);
                        System.out.printf("%-24s %-4d %,12.0f %,12.0f %7.3f %10.1f%n", projection, run, base, caught[1],
                                caught[1] / base, caught[0]);
                        continue;
                    }
                    double base = jdbc(db, total);
                    HeapSampler heap = new HeapSampler(queryPid);
                    heap.start();
                    ReadProbe probe = new ReadProbe(gateway, sampleToken);
                    probe.start();
                    long started = System.nanoTime();
                    String id = rebuild(gateway, projection);
                    String[] row = awaitDone(db, id);
                    double seconds = (System.nanoTime() - started) / 1e9;
                    probe.interrupt();
                    probe.join();
                    heap.interrupt();
                    heap.join();
                    double rate = Long.parseLong(row[0]) / seconds;
                    bases.add(base);
                    rates.add(rate);
                    ratios.add(rate / base);
                    System.out.printf("%-24s %-4d %,12.0f %,12.0f %7.3f %10.1f %10s %10s %16s %18s%n", projection, run,
                            base, rate, rate / base, seconds, row[1], row[2], heap.summary(), probe.summary());
                }
                System.out.printf("%-24s %-4s %,12.0f %,12.0f %7.3f%n", projection, "med", median(bases), median(rates),
                        median(ratios));
            }
        }
    }

    /**
     * The floor of an eventlog rebuild in PostgreSQL itself, in seconds: the live tables' finished rows copied
     * server-side (no client, no handler) into unlogged copies with their keys, set logged, the other indexes built and
     * analyzed, one table per connection; then the digests of live and copied tables, side by side, as the switch
     * takes them. What a rebuild of those tables cannot beat however its handlers and loads are written.
     */
    static double eventLogFloor(String url, String user, String password) throws Exception {
        String[] tables = {"event_log", "audit_event"};
        try (Connection admin = DriverManager.getConnection(url, user, password.isEmpty() ? null : password);
             Statement s = admin.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS bench_floor CASCADE");
            s.execute("CREATE SCHEMA bench_floor");
            long started = System.nanoTime();
            inParallel(url, user, password, tables.length, (db, i) -> {
                String live = "public." + tables[i];
                String copy = "bench_floor." + tables[i];
                try (Statement t = db.createStatement()) {
                    t.execute("CREATE UNLOGGED TABLE " + copy + " (LIKE " + live + " INCLUDING DEFAULTS INCLUDING "
                            + "CONSTRAINTS) WITH (autovacuum_enabled = false)");
                    for (String key : strings(db, "SELECT 'ALTER TABLE " + copy + " ADD CONSTRAINT ' || conname || ' ' "
                            + "|| pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '" + live
                            + "'::regclass AND contype IN ('p', 'u', 'x')")) {
                        t.execute(key);
                    }
                    t.execute("INSERT INTO " + copy + " SELECT * FROM " + live);
                    t.execute("ALTER TABLE " + copy + " SET LOGGED");
                    for (String index : strings(db, "SELECT replace(replace(pg_get_indexdef(i.indexrelid), ' ON "
                            + live + " ', ' ON " + copy + " '), 'INDEX ', 'INDEX floor_') FROM pg_index i WHERE "
                            + "i.indrelid = '" + live + "'::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c "
                            + "WHERE c.conindid = i.indexrelid)")) {
                        t.execute(index);
                    }
                    t.execute("ANALYZE " + copy);
                }
            });
            String[] schemas = {"public", "bench_floor"};
            inParallel(url, user, password, schemas.length, (db, i) -> {
                for (String table : tables) {
                    String columns = String.join(", ", strings(db, "SELECT 't.' || quote_ident(column_name) FROM "
                            + "information_schema.columns WHERE table_schema = 'public' AND table_name = '" + table
                            + "' ORDER BY ordinal_position"));
                    strings(db, "SELECT count(*) || ' ' || coalesce(sum(hashtextextended(ROW(" + columns
                            + ")::text, 0)::numeric), 0) FROM " + schemas[i] + "." + table + " t");
                }
            });
            double seconds = (System.nanoTime() - started) / 1e9;
            s.execute("DROP SCHEMA bench_floor CASCADE");
            return seconds;
        }
    }

    interface Work {
        void run(Connection db, int i) throws Exception;
    }

    /** {@code work} for 0 to {@code count - 1}, each on a thread and connection of its own; waits for all. */
    static void inParallel(String url, String user, String password, int count, Work work) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < count; i++) {
            int n = i;
            Thread thread = new Thread(() -> {
                try (Connection db = DriverManager.getConnection(url, user, password.isEmpty() ? null : password)) {
                    work.run(db, n);
                } catch (Exception e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    static List<String> strings(Connection db, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    /** Per 1,000 events: a project, 99 tokens, 900 changes of them. Answers the first global index. */
    static long seed(Connection db, String org, long events, long offset) throws Exception {
        String prefix = "c" + String.format("%06x", (System.currentTimeMillis() + offset) & 0xffffff);
        String project = "'" + prefix + "' || lpad(to_hex(i / 1000), 17, '0')";
        String token = "'d" + prefix.substring(1) + "' || lpad(to_hex(i / 1000), 11, '0') || lpad(to_hex(1 + (i % 1000 - 1) % 99), 6, '0')";
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TEMP TABLE seeded AS SELECT max(global_index) AS before FROM domain_event_entry");
            s.execute("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type, "
                    + "time_stamp, payload_type, payload_revision, payload, meta_data) "
                    + "SELECT gen_random_uuid()::text, CASE WHEN i % 1000 = 0 THEN " + project + " ELSE " + token + " END, "
                    + "CASE WHEN i % 1000 <= 99 THEN 0 ELSE 1 + (i % 1000 - 100) / 99 END, "
                    + "CASE WHEN i % 1000 = 0 THEN 'ProjectAggregate' ELSE 'TokenAggregate' END, "
                    + "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), "
                    + "CASE WHEN i % 1000 = 0 THEN 'ai.convo.contract.project.ProjectCreatedEvent' "
                    + "  WHEN i % 1000 <= 99 THEN 'ai.convo.contract.token.TokenCreatedEvent' "
                    + "  ELSE 'ai.convo.contract.token.TokenUpdatedEvent' END, NULL, convert_to(CASE "
                    + "WHEN i % 1000 = 0 THEN json_build_object('projectId', " + project + ", 'organisationId', '" + org
                    + "', 'name', 'Bench project ' || i, 'color', '', 'createdBy', '" + user + "', 'createdAt', 1700000000 + i)::text "
                    + "WHEN i % 1000 <= 99 THEN json_build_object('tokenId', " + token + ", 'projectId', " + project
                    + ", 'organisationId', '" + org + "', 'referenceId', gen_random_uuid()::text, 'label', 'Bench token ' || i, "
                    + "'type', 'custom', 'script', 'return \"hello from the bench, event ' || i || '\";', "
                    + "'createdBy', '" + user + "', 'createdAt', 1700000000 + i)::text "
                    + "ELSE json_build_object('tokenId', " + token + ", 'projectId', " + project + ", 'organisationId', '"
                    + org + "', 'changedFields', json_build_array('script'), 'label', 'Bench token ' || (i % 1000), "
                    + "'type', 'custom', 'script', 'return \"hello from the bench, event ' || i || '\";', "
                    + "'changedBy', '" + user + "', 'changedAt', 1700000000 + i)::text END, 'UTF8'), convert_to('{}', 'UTF8') "
                    + "FROM generate_series(" + offset + ", " + (offset + events - 1) + ") AS i");
            try (ResultSet r = s.executeQuery("SELECT coalesce(before, 0) + 1 FROM seeded")) {
                r.next();
                long first = r.getLong(1);
                s.execute("DROP TABLE seeded");
                return first;
            }
        }
    }

    /**
     * A query replica that missed {@code events} events: the query service is stopped (SIGSTOP) while they are
     * appended, then resumed; answers the seconds until every live processor has passed them, and events/s.
     */
    static double[] catchUp(Connection db, String org, String queryPid, long events) throws Exception {
        if (queryPid.isEmpty()) {
            throw new IllegalStateException("catch-up needs the query service's pid (QUERY_PID)");
        }
        signal("STOP", queryPid);
        try {
            for (long done = 0; done < events; done += PORTION) {
                seed(db, org, Math.min(PORTION, events - done), done);
            }
        } finally {
            signal("CONT", queryPid);
        }
        long started = System.nanoTime();
        awaitProjected(db);
        double seconds = (System.nanoTime() - started) / 1e9;
        return new double[] {seconds, events / seconds};
    }

    static void signal(String signal, String pid) throws Exception {
        if (new ProcessBuilder("kill", "-" + signal, pid).inheritIO().start().waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }

    /** Until every live processor's every segment has passed the newest event. */
    static void awaitProjected(Connection db) throws Exception {
        long head = Long.parseLong(scalar(db, "SELECT max(global_index) FROM domain_event_entry"));
        while (true) {
            String behind = scalar(db, "SELECT count(*) FROM token_entry WHERE processor_name IN ('projects', "
                    + "'locales', 'tokens', 'functions', 'flows', 'states', 'intents', 'knowledge', 'snapshots', 'tasks', "
                    + "'system-messages', 'voice-assistant-links', 'login-attempts', 'callcounter', 'eventlog') AND "
                    + "coalesce((convert_from(token, 'UTF8')::jsonb ->> 'index')::bigint, -1) < " + head);
            if (behind.equals("0")) {
                return;
            }
            Thread.sleep(200);
        }
    }

    static String rebuild(String gateway, String projection) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(gateway
                        + "/management/v2.0/projections/rebuild")).header("X-API-Key", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"projection\":\"" + projection + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 202) {
            throw new IllegalStateException("rebuild answered " + answer.statusCode() + ": " + answer.body());
        }
        Matcher id = Pattern.compile("\"_id\"\\s*:\\s*\"([a-z0-9]{24})\"").matcher(answer.body());
        if (!id.find()) {
            throw new IllegalStateException(answer.body());
        }
        return id.group(1);
    }

    /** events done, write pause, read pause, once the rebuild is done. */
    static String[] awaitDone(Connection db, String id) throws Exception {
        while (true) {
            try (PreparedStatement s = db.prepareStatement("SELECT status, events_done, write_pause_ms, read_pause_ms, "
                    + "fail_reason FROM projection_rebuild WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        String status = r.getString(1);
                        if (status.equals("done")) {
                            return new String[] {r.getString(2), r.getString(3), r.getString(4)};
                        }
                        if (!status.equals("requested") && !status.equals("running")) {
                            throw new IllegalStateException("rebuild " + id + " ended " + status + ": " + r.getString(5));
                        }
                    }
                }
            }
            Thread.sleep(20);
        }
    }

    /** Events per second reading every stored event with plain JDBC, every column touched. */
    static double jdbc(Connection db, long total) throws Exception {
        long started = System.nanoTime();
        long rows = 0;
        long bytes = 0;
        db.setAutoCommit(false);
        try (PreparedStatement s = db.prepareStatement("SELECT global_index, event_identifier, aggregate_identifier, "
                + "sequence_number, type, time_stamp, payload_type, payload_revision, payload, meta_data "
                + "FROM domain_event_entry ORDER BY global_index")) {
            s.setFetchSize(1000);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows++;
                    String type = r.getString(5);
                    bytes += r.getLong(1) + r.getString(2).length() + r.getString(3).length() + r.getLong(4)
                            + (type == null ? 0 : type.length()) + r.getString(6).length() + r.getString(7).length()
                            + r.getBytes(9).length + r.getBytes(10).length;
                    r.getString(8);
                }
            }
        } finally {
            db.commit();
            db.setAutoCommit(true);
        }
        if (rows < total || bytes == 0) {
            throw new IllegalStateException("read " + rows + " rows, expected " + total);
        }
        return rows / ((System.nanoTime() - started) / 1e9);
    }

    static String scalar(Connection db, String sql) throws Exception {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    /** Reads one token through the gateway back to back; latencies and failures. */
    static final class ReadProbe extends Thread {
        private final String url;
        private final List<Double> millis = Collections.synchronizedList(new ArrayList<>());
        private int failures;

        ReadProbe(String gateway, String token) {
            String[] parts = token.split("\\|");
            this.url = gateway + "/v2.0/projects/" + parts[1] + "/snippets/" + parts[0];
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!isInterrupted()) {
                long t = System.nanoTime();
                try {
                    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("X-API-Key", key)
                            .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) {
                        failures++;
                    }
                    millis.add((System.nanoTime() - t) / 1e6);
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException e) {
                    failures++;
                }
            }
        }

        String summary() {
            List<Double> sorted = new ArrayList<>(millis);
            Collections.sort(sorted);
            if (sorted.isEmpty()) {
                return "n/a";
            }
            return String.format("%.0f/%.0f/%.0f%s", percentile(sorted, 50), percentile(sorted, 99),
                    sorted.get(sorted.size() - 1), failures == 0 ? "" : " (" + failures + " failed)");
        }
    }

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
            // One jstat for the whole run, printing every 250 ms: a jstat per sample starts a JVM each time, which
            // took a large share of this 2-core machine from the rebuild it measured.
            Process p = null;
            try {
                p = new ProcessBuilder("jstat", "-gc", pid, "250").redirectErrorStream(true).start();
                BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream()));
                String[] head = null;
                for (String line; !isInterrupted() && (line = lines.readLine()) != null; ) {
                    String[] values = line.trim().split("\\s+");
                    if (head == null || values[0].equals(head[0])) {
                        head = values;
                        continue;
                    }
                    double used = 0;
                    for (int i = 0; i < head.length && i < values.length; i++) {
                        if (head[i].equals("EU") || head[i].equals("OU") || head[i].equals("S0U") || head[i].equals("S1U")) {
                            used += Double.parseDouble(values[i]);
                        }
                    }
                    samples.add(used / 1024);
                }
            } catch (IOException | NumberFormatException ignored) {
                // done
            } finally {
                if (p != null) {
                    p.destroy();
                }
            }
        }

        String summary() {
            return samples.isEmpty() ? "n/a" : String.format("%.0f", Collections.max(samples));
        }
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
