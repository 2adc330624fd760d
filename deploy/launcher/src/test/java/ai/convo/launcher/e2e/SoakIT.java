package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.launcher.ServiceProcess;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The operator's soak: 2 gateways (each fronting every replica), 3 command and 3 query replicas, a PostgreSQL primary
 * and a streaming standby the query replicas read from, all real processes. Workers run mixed load (writes on hot
 * and cold aggregates with an immediate read-back, lists, snapshots, call-record ingest) while a chaos loop SIGKILLs
 * and restarts a random replica. Afterwards the event log and the read models are checked against what was
 * acknowledged. Prints one report; every zero the operator is promised is an assertion.
 * <p>
 * Short by default (CI). {@code deploy/soak.sh} runs the full ten minutes with the throughput phase:
 * {@code -Dsoak.seconds=600 -Dsoak.throughput-seconds=15}.
 */
class SoakIT {

    private static final long SECONDS = Long.getLong("soak.seconds", 75);
    private static final int KILL_MIN = Integer.getInteger("soak.kill-min-seconds", 15);
    private static final int KILL_MAX = Integer.getInteger("soak.kill-max-seconds", 25);
    private static final int THROUGHPUT_SECONDS = Integer.getInteger("soak.throughput-seconds", 0);
    private static final int WORKERS = Integer.getInteger("soak.workers", 6);
    private static final int HOT_LOCALES = 3;
    private static final int MAX_OWN_LOCALES = 25;
    private static final int MAX_OWN_SNAPSHOTS = 3;
    /** Call records start on this day (inside the reported window). */
    private static final long CALL_DAY = 1_793_491_200L; // 2026-11-01T00:00:00Z
    private static final Pattern NAME = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern LOCALE_ID = Pattern.compile("\"localeId\"\\s*:\\s*\"([^\"]*)\"");

    /** One HTTP exchange of a worker, for telling a write cut off by a kill from a fault. */
    record Call(String what, String method, long start, long end, int status) {
    }

    /** {@code held}: segments the killed process held; {@code takeOverMillis} until live ones held them all. */
    /** {@code at}: the SIGKILL was sent; {@code dead}: the process was gone (both System.nanoTime()). */
    record Kill(String kind, int index, long pid, long at, long dead, int held, long takeOverMillis) {
    }


    /** A read after this worker's acknowledged write of {@code mine} to a hot locale saw {@code seen}. */
    record HotRead(String localeId, String mine, String seen) {
    }

    private Stack stack;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Kill> kills = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();
    private final List<HotRead> hotReads = new CopyOnWriteArrayList<>();
    /** Names acknowledged by a 2xx, and names whose write has no known outcome (5xx or no answer). */
    private final Set<String> ackedNames = ConcurrentHashMap.newKeySet();
    private final Set<String> uncertainNames = ConcurrentHashMap.newKeySet();
    private final Set<String> ackedTasks = ConcurrentHashMap.newKeySet();
    private final AtomicLong ackedCallRecords = new AtomicLong();
    private final AtomicLong uncertainCallRecords = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong readsThatWaited = new AtomicLong();
    private final Map<String, Double> throughput = new java.util.LinkedHashMap<>();
    private final List<String> hotLocales = new ArrayList<>();
    private String hotProject;

    @Test
    void underMixedLoadAndRandomKillsNothingAcknowledgedIsLostOrDoubledAndEveryReadIsOwnWriteFresh() throws Exception {
        long started = System.nanoTime();
        stack = new Stack(new Stack.Layout(3, 3, 2, true, true, Map.of()));
        try {
            long startup = (System.nanoTime() - started) / 1_000_000;
            setUp();
            if (THROUGHPUT_SECONDS > 0) {
                measureThroughput();
            }
            List<Worker> workers = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                workers.add(new Worker(w));
            }
            List<Thread> threads = new ArrayList<>();
            for (Worker worker : workers) {
                Thread thread = new Thread(worker::run, "soak-worker-" + worker.id);
                thread.start();
                threads.add(thread);
            }
            Thread chaos = new Thread(this::chaos, "soak-chaos");
            chaos.start();
            long loadStarted = System.nanoTime();
            loadStart = loadStarted;
            long end = loadStarted + SECONDS * 1_000_000_000L;
            while (System.nanoTime() < end) {
                Thread.sleep(Math.min(30_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                System.out.printf("soak: %d s, %d writes, %d reads, %d kills, %d violations, %d unexpected%n",
                        (System.nanoTime() - loadStarted) / 1_000_000_000L, writes.get(), reads.get(), kills.size(),
                        violations.size(), unexpected.size());
            }
            running.set(false);
            chaos.join();
            for (Thread thread : threads) {
                thread.join();
            }
            long loadSeconds = (System.nanoTime() - loadStarted) / 1_000_000_000L;
            verify(workers);
            report(startup, loadSeconds);
        } finally {
            stack.close();
        }
    }

    // ---- set-up

    private Api api(int gateway) {
        return Api.withKey(stack.baseUrl(gateway), Stack.ADMIN_KEY);
    }

    private void setUp() {
        Api api = api(0);
        Api.Answer project = api.post("/v2.0/projects", Map.of("name", "Soak hot", "locale", "en-US"));
        assertThat(project.status()).as(project.raw().body()).isEqualTo(201);
        hotProject = project.body().get("_id").stringValue();
        for (int i = 0; i < HOT_LOCALES; i++) {
            Api.Answer locale = api.post("/v2.0/locales", Map.of("projectId", hotProject, "name", "hot-" + i,
                    "nluLanguage", "de-DE"));
            assertThat(locale.status()).as(locale.raw().body()).isEqualTo(201);
            hotLocales.add(locale.body().get("_id").stringValue());
        }
    }

    // ---- the workers

    final class Worker {
        final int id;
        final Random random;
        final String projectId;
        /** This worker's own locales (it alone writes them) with their acknowledged names. */
        final Map<String, String> ownLocales = new HashMap<>();
        int uncertainCreates;
        int uncertainDeletes;
        /** Snapshot id to the task that creates it. */
        final Map<String, String> snapshots = new java.util.LinkedHashMap<>();
        int seq;

        Worker(int id) {
            this.id = id;
            this.random = new Random(id * 7919L);
            Api.Answer project = api(id % 2).post("/v2.0/projects", Map.of("name", "Soak " + id, "locale", "en-US"));
            assertThat(project.status()).as(project.raw().body()).isEqualTo(201);
            projectId = project.body().get("_id").stringValue();
        }

        void run() {
            while (running.get()) {
                try {
                    int dice = random.nextInt(100);
                    if (dice < 25) {
                        hotWrite();
                    } else if (dice < 35) {
                        coldCreateOrDelete();
                    } else if (dice < 50) {
                        coldRename();
                    } else if (dice < 80) {
                        list();
                    } else if (dice < 88) {
                        snapshot();
                    } else {
                        callRecords();
                    }
                } catch (RuntimeException e) {
                    unexpected.add("worker " + id + ": " + e);
                }
            }
        }

        private String name(String kind) {
            return kind + id + "x" + (seq++);
        }

        private Api writer() {
            return api(random.nextInt(2));
        }

        /** Reads go through the other gateway half of the time: a script need not stick to one. */
        private Api reader() {
            return api(random.nextInt(2));
        }

        private Api.Answer call(String what, Api api, String method, String path, Object body) {
            long start = System.nanoTime();
            Api.Answer answer;
            try {
                answer = api.send(method, path, body, Map.of());
            } catch (RuntimeException e) {
                calls.add(new Call(what, method, start, System.nanoTime(), 0));
                return null;
            }
            calls.add(new Call(what, method, start, System.nanoTime(), answer.status()));
            if (method.equals("GET")) {
                reads.incrementAndGet();
                if (answer.raw().headers().allValues("Server-Timing").stream().anyMatch(v -> v.startsWith("ryw;"))) {
                    readsThatWaited.incrementAndGet();
                }
            } else {
                writes.incrementAndGet();
            }
            return answer;
        }

        /** A read must answer 2xx/404 as expected; a 5xx or no answer is a violation of its own. */
        private Api.Answer read(String what, String path) {
            Api.Answer answer = call(what, reader(), "GET", path, null);
            if (answer == null || answer.status() >= 500) {
                violations.add("read " + what + " answered " + (answer == null ? "nothing" : answer.status() + " "
                        + answer.raw().body()));
                return null;
            }
            return answer;
        }

        private static boolean uncertain(Api.Answer answer) {
            return answer == null || answer.status() >= 500;
        }

        void hotWrite() {
            String locale = hotLocales.get(random.nextInt(hotLocales.size()));
            String value = name("h");
            Api.Answer written = call("hot rename", writer(), "PATCH", "/v2.0/locales/" + locale, Map.of("name", value));
            if (uncertain(written)) {
                uncertainNames.add(value);
                return;
            }
            if (written.status() != 200) {
                unexpected.add("hot rename: " + written.status() + " " + written.raw().body());
                return;
            }
            ackedNames.add(value);
            Api.Answer read = read("hot locale", "/v2.0/locales/" + locale);
            if (read != null) {
                if (read.status() != 200) {
                    violations.add("hot locale read after write: " + read.status());
                } else {
                    hotReads.add(new HotRead(locale, value, read.body().get("name").stringValue()));
                }
            }
        }

        void coldCreateOrDelete() {
            if (ownLocales.size() >= MAX_OWN_LOCALES) {
                String victim = ownLocales.keySet().iterator().next();
                Api.Answer deleted = call("delete locale", writer(), "DELETE", "/v2.0/locales/" + victim, null);
                if (uncertain(deleted)) {
                    ownLocales.remove(victim);
                    uncertainDeletes++;
                    return;
                }
                if (deleted.status() != 204 && deleted.status() != 200) {
                    unexpected.add("delete locale: " + deleted.status() + " " + deleted.raw().body());
                    return;
                }
                ownLocales.remove(victim);
                Api.Answer read = read("deleted locale", "/v2.0/locales/" + victim);
                if (read != null && read.status() != 404) {
                    violations.add("deleted locale " + victim + " (written at " + deleted.header("X-Event-Position")
                            + ") still read: " + read.status() + diagnose(victim, read));
                }
                return;
            }
            String value = name("c");
            Api.Answer created = call("create locale", writer(), "POST", "/v2.0/locales",
                    Map.of("projectId", projectId, "name", value, "nluLanguage", "de-DE"));
            if (uncertain(created)) {
                uncertainNames.add(value);
                uncertainCreates++;
                return;
            }
            if (created.status() != 201) {
                unexpected.add("create locale: " + created.status() + " " + created.raw().body());
                return;
            }
            ackedNames.add(value);
            String localeId = created.body().get("_id").stringValue();
            ownLocales.put(localeId, value);
            expectName("new locale (written at " + created.header("X-Event-Position") + ")", localeId, value);
        }

        void coldRename() {
            if (ownLocales.isEmpty()) {
                coldCreateOrDelete();
                return;
            }
            List<String> ids = new ArrayList<>(ownLocales.keySet());
            String localeId = ids.get(random.nextInt(ids.size()));
            String value = name("r");
            Api.Answer renamed = call("rename locale", writer(), "PATCH", "/v2.0/locales/" + localeId,
                    Map.of("name", value));
            if (uncertain(renamed)) {
                uncertainNames.add(value);
                ownLocales.remove(localeId); // its name is unknown now; the final check reads the log
                renamedWithoutOutcome++;
                return;
            }
            if (renamed.status() != 200) {
                unexpected.add("rename locale: " + renamed.status() + " " + renamed.raw().body());
                return;
            }
            ackedNames.add(value);
            ownLocales.put(localeId, value);
            expectName("renamed locale (written at " + renamed.header("X-Event-Position") + ")", localeId, value);
        }

        private void expectName(String what, String localeId, String value) {
            Api.Answer read = read(what, "/v2.0/locales/" + localeId);
            if (read != null && (read.status() != 200 || !value.equals(read.body().get("name").stringValue()))) {
                violations.add(what + " " + localeId + diagnose(localeId, read) + ": expected " + value + ", read "
                        + read.status() + " "
                        + read.raw().body());
            }
        }

        void list() {
            Api.Answer page = read("locale list", "/v2.0/locales?projectId=" + projectId + "&limit=25");
            if (page == null) {
                return;
            }
            long total = page.status() == 200 ? page.body().get("total").longValue() : -1;
            // the primary locale, every acknowledged own locale, perhaps some whose create had no known outcome
            // (locales whose delete or rename had no known outcome are no longer tracked, but may be there)
            long low = 1 + ownLocales.size();
            long high = low + uncertainCreates + uncertainDeletes + renamedWithoutOutcome;
            if (total < low || total > high) {
                violations.add("own locale list total " + total + ", expected " + low + " to " + high);
            }
        }

        int renamedWithoutOutcome;

        void snapshot() {
            if (snapshots.size() >= MAX_OWN_SNAPSHOTS) {
                String victim = snapshots.keySet().iterator().next();
                Api.Answer task = read("snapshot task", "/v2.0/tasks/" + snapshots.get(victim));
                if (task == null || task.status() != 200 || !task.body().get("status").stringValue().equals("done")) {
                    return; // still being made: deleted later
                }
                snapshots.remove(victim);
                Api.Answer deleted = call("delete snapshot", writer(), "DELETE", "/v2.0/snapshots/" + victim, null);
                if (!uncertain(deleted)) {
                    acceptTask("delete snapshot", deleted);
                }
                return;
            }
            Api.Answer created = call("create snapshot", writer(), "POST", "/v2.0/snapshots",
                    Map.of("projectId", projectId, "name", name("s")));
            if (uncertain(created)) {
                return;
            }
            String taskId = acceptTask("create snapshot", created);
            if (taskId != null) {
                JsonNode snapshotId = created.body().path("parameters").path("snapshotId");
                Api.Answer read = read("snapshot task", "/v2.0/tasks/" + taskId);
                if (read != null && read.status() != 200) {
                    violations.add("task " + taskId + " of an accepted snapshot not read: " + read.status());
                }
                if (snapshotId.isString()) {
                    snapshots.put(snapshotId.stringValue(), taskId);
                } else {
                    unexpected.add("snapshot task without a snapshotId: " + created.raw().body());
                }
            }
        }

        private String acceptTask(String what, Api.Answer answer) {
            if (answer.status() != 202) {
                unexpected.add(what + ": " + answer.status() + " " + answer.raw().body());
                return null;
            }
            String taskId = answer.body().get("_id").stringValue();
            ackedTasks.add(taskId);
            return taskId;
        }

        void callRecords() {
            List<Map<String, Object>> records = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                long startedAt = CALL_DAY + random.nextInt(80_000);
                records.add(Map.of("callId", "soak-" + id + "-" + (seq++), "projectId", projectId,
                        "startedAt", startedAt, "endedAt", startedAt + random.nextInt(600), "billable", true));
            }
            long ackedBefore = ackedCallRecords.get();
            Api.Answer ingested = call("call records", writer(), "POST", "/management/v2.0/callrecords",
                    Map.of("records", records));
            if (uncertain(ingested)) {
                uncertainCallRecords.addAndGet(records.size());
                return;
            }
            if (ingested.status() != 200) {
                unexpected.add("call records: " + ingested.status() + " " + ingested.raw().body());
                return;
            }
            ackedCallRecords.addAndGet(records.size());
            // one principal for every worker: every batch acknowledged before this read must be in it
            long mustSee = ackedBefore + records.size();
            Api.Answer counters = read("call counter", "/v3.0/callcounter?from=2026-11-01&to=2026-11-01");
            if (counters != null) {
                long processed = counters.status() == 200
                        ? counters.body().get("items").get(0).get("processedCalls").longValue() : -1;
                if (processed < mustSee) {
                    violations.add("call counter read " + processed + " processed calls after " + mustSee
                            + " were acknowledged");
                }
            }
        }
    }

    /**
     * What each layer shows right after a stale read: the row on the primary and the standby, the principal's
     * newest recorded write, the locale's newest events, and the locales processor's tokens and published progress
     * on both databases; when the read was made, relative to the kills; the answer's headers.
     */
    private String diagnose(String localeId, Api.Answer read) {
        long now = System.nanoTime();
        StringBuilder out = new StringBuilder("\n  diagnosis at ").append((now - loadStart) / 1_000_000).append(" ms");
        out.append("; kills at ").append(kills.stream().map(k -> k.kind() + "-" + k.index() + "@"
                + (k.at() - loadStart) / 1_000_000).toList());
        out.append("; headers ").append(read.raw().headers().map());
        for (var db : List.of(Map.entry("primary", stack.primary), Map.entry("standby", stack.standby))) {
            try (Connection c = DriverManager.getConnection(db.getValue().jdbcUrl("convo"), "postgres", "");
                 Statement s = c.createStatement()) {
                out.append("\n  ").append(db.getKey()).append(": row ");
                try (ResultSet row = s.executeQuery("SELECT name FROM locale_view WHERE id = '" + localeId + "'")) {
                    out.append(row.next() ? row.getString(1) : "none");
                }
                try (ResultSet rows = s.executeQuery("SELECT t.segment, t.owner, convert_from(t.token, 'UTF8'), "
                        + "p.idx, p.gaps, p.replica FROM token_entry t LEFT JOIN segment_progress p ON "
                        + "p.processor_name = t.processor_name AND p.segment = t.segment WHERE t.processor_name = 'locales'")) {
                    while (rows.next()) {
                        out.append("\n    locales[").append(rows.getInt(1)).append("] owner ").append(rows.getString(2))
                                .append(" token ").append(rows.getString(3)).append(" published ").append(rows.getString(4))
                                .append(" gaps ").append(rows.getString(5)).append(" by ").append(rows.getString(6));
                    }
                }
                if (db.getKey().equals("primary")) {
                    try (ResultSet rows = s.executeQuery("SELECT max(position) FROM principal_write")) {
                        out.append("\n    newest principal write ").append(rows.next() ? rows.getLong(1) : -1);
                    }
                    try (ResultSet rows = s.executeQuery("SELECT global_index, sequence_number, payload_type FROM "
                            + "domain_event_entry WHERE convert_from(payload, 'UTF8') LIKE '%" + localeId + "%' "
                            + "ORDER BY global_index DESC LIMIT 3")) {
                        while (rows.next()) {
                            out.append("\n    event ").append(rows.getLong(1)).append(" seq ").append(rows.getLong(2))
                                    .append(' ').append(rows.getString(3));
                        }
                    }
                } else {
                    try (ResultSet rows = s.executeQuery("SELECT pg_last_wal_replay_lsn()::text")) {
                        out.append("\n    replayed to ").append(rows.next() ? rows.getString(1) : "?");
                    }
                }
            } catch (Exception e) {
                out.append("\n  ").append(db.getKey()).append(": ").append(e);
            }
        }
        return out.toString();
    }

    private volatile long loadStart;

    // ---- chaos

    /**
     * Every KILL_MIN to KILL_MAX seconds, SIGKILL a random live replica and restart it at once (it takes its time to
     * come back, in a thread of its own, so kills keep their pace); at least one replica of each kind stays alive.
     */
    private void chaos() {
        Random random = new Random(42);
        Set<String> restarting = ConcurrentHashMap.newKeySet();
        List<Thread> restarts = new ArrayList<>();
        while (running.get()) {
            long pause = (KILL_MIN + random.nextInt(KILL_MAX - KILL_MIN + 1)) * 1000L;
            long until = System.currentTimeMillis() + pause;
            while (running.get() && System.currentTimeMillis() < until) {
                sleep(100);
            }
            if (!running.get()) {
                break;
            }
            boolean command = random.nextBoolean();
            String kind = command ? "command" : "query";
            List<Integer> alive = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                if (!restarting.contains(kind + i)) {
                    alive.add(i);
                }
            }
            if (alive.size() <= 1) {
                continue;
            }
            int index = alive.get(random.nextInt(alive.size()));
            ServiceProcess victim = command ? stack.commands.get(index) : stack.queries.get(index);
            long pid = victim.pid();
            int held = segmentsHeldBy(pid);
            long at = System.nanoTime();
            victim.kill();
            long dead = System.nanoTime();
            restarting.add(kind + index);
            Thread restart = new Thread(() -> {
                long restarted = System.nanoTime();
                try {
                    if (command) {
                        stack.startCommand(index);
                    } else {
                        stack.startQuery(index);
                    }
                } catch (Exception e) {
                    unexpected.add("restart of " + kind + " " + index + " failed: " + e);
                }
                long back = (System.nanoTime() - restarted) / 1_000_000;
                restarting.remove(kind + index);
                backIn.put(at, back);
            }, "soak-restart-" + kind + index);
            restart.start();
            restarts.add(restart);
            kills.add(new Kill(kind, index, pid, at, dead, held, takeOver(pid, at)));
        }
        for (Thread restart : restarts) {
            try {
                restart.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How long each killed replica took to be back (healthy, a query replica caught up), by its kill's time. */
    private final Map<Long, Long> backIn = new ConcurrentHashMap<>();

    private int segmentsHeldBy(long pid) {
        try (Connection c = primary(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT count(*) FROM token_entry WHERE owner LIKE '" + pid + "@%'")) {
            rows.next();
            return rows.getInt(1);
        } catch (Exception e) {
            unexpected.add("segment probe: " + e);
            return -1;
        }
    }

    /** Milliseconds until no segment is held by the killed process and every segment has a live holder. */
    private long takeOver(long deadPid, long killedAt) {
        String dead = deadPid + "@";
        long deadline = killedAt + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Connection c = primary(); Statement s = c.createStatement();
                 ResultSet rows = s.executeQuery("SELECT count(*) FILTER (WHERE owner IS NULL OR owner LIKE '"
                         + dead + "%') AS orphans FROM token_entry")) {
                rows.next();
                if (rows.getLong(1) == 0) {
                    return (System.nanoTime() - killedAt) / 1_000_000;
                }
            } catch (Exception e) {
                unexpected.add("take-over probe: " + e);
                return -1;
            }
            sleep(20);
        }
        return -1;
    }

    private Connection primary() throws java.sql.SQLException {
        return DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password());
    }

    // ---- throughput per replica count

    private void measureThroughput() throws Exception {
        // eight projects, so eight clients write eight different aggregates
        List<Worker> probes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Worker probe = new Worker(90 + i);
            probe.coldCreateOrDelete();
            probes.add(probe);
        }
        for (int replicas = 3; replicas >= 1; replicas--) {
            if (replicas < 3) {
                stack.commands.get(replicas).kill();
                stack.queries.get(replicas).kill();
                takeOver(stack.queries.get(replicas).pid(), System.nanoTime());
                takeOver(stack.commands.get(replicas).pid(), System.nanoTime());
                sleep(2500); // the gateways' health checks (every second) mark them down
            }
            int count = replicas;
            if (replicas == 3) {
                // warm-up, not recorded: the JIT compiles the paths measured next
                rate(i -> api(i % 2).get("/v2.0/locales?projectId=" + probes.get(i % 8).projectId + "&limit=25"));
                rate(i -> api(i % 2).patch("/v2.0/locales/" + probes.get(i % 8).ownLocales.keySet().iterator().next(),
                        Map.of("name", "warm" + i)));
            }
            AtomicLong n = new AtomicLong();
            List<Double> lists = new ArrayList<>();
            List<Double> commands = new ArrayList<>();
            for (int run = 0; run < 3; run++) {
                lists.add(rate(i -> api(i % 2).get("/v2.0/locales?projectId=" + probes.get(i % 8).projectId
                        + "&limit=25")));
                commands.add(rate(i -> api(i % 2).patch("/v2.0/locales/"
                        + probes.get(i % 8).ownLocales.keySet().iterator().next(),
                        Map.of("name", "t" + count + "x" + n.incrementAndGet()))));
            }
            Collections.sort(lists);
            Collections.sort(commands);
            throughput.put("lists/s with " + replicas + " query replica(s), median of 3 " + lists, lists.get(1));
            throughput.put("commands/s with " + replicas + " command replica(s), median of 3 " + commands,
                    commands.get(1));
        }
        for (int i = 1; i < 3; i++) {
            stack.startCommand(i);
            stack.startQuery(i);
        }
        sleep(2500);
    }

    /** Answers per second of 8 concurrent clients sending {@code request} for the throughput period. */
    private double rate(java.util.function.IntFunction<Api.Answer> request) throws InterruptedException {
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long end = System.nanoTime() + THROUGHPUT_SECONDS * 1_000_000_000L;
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            int client = c;
            Thread thread = new Thread(() -> {
                int i = client;
                while (System.nanoTime() < end) {
                    Api.Answer answer = request.apply(i);
                    i += 8;
                    (answer.status() < 300 ? ok : failed).incrementAndGet();
                }
            });
            thread.start();
            clients.add(thread);
        }
        for (Thread thread : clients) {
            thread.join();
        }
        if (failed.get() > 0) {
            unexpected.add("throughput phase: " + failed.get() + " answers were not 2xx");
        }
        return ok.get() / (double) THROUGHPUT_SECONDS;
    }

    // ---- verification

    /** A locale event as the log holds it. */
    record Logged(String aggregate, long sequence, String type, String localeId, String name) {
    }

    private void verify(List<Worker> workers) throws Exception {
        // every replica is back: let the read side settle on the last writes before reading the final state
        List<Logged> log = new ArrayList<>();
        try (Connection c = primary(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT aggregate_identifier, sequence_number, payload_type, "
                     + "convert_from(payload, 'UTF8') AS payload FROM domain_event_entry "
                     + "WHERE payload_type LIKE '%.locale.Locale%Event' ORDER BY global_index")) {
            while (rows.next()) {
                String payload = rows.getString("payload");
                log.add(new Logged(rows.getString(1), rows.getLong(2), rows.getString(3), find(LOCALE_ID, payload),
                        find(NAME, payload)));
            }
        }
        // lost and doubled: each acknowledged name is in the log exactly once, a name without outcome at most once
        Map<String, Integer> timesLogged = new HashMap<>();
        Map<String, Long> sequenceOf = new HashMap<>();
        for (Logged event : log) {
            if (event.name() != null && !event.type().endsWith("LocaleDeletedEvent")
                    && (event.type().endsWith("LocaleCreatedEvent") || event.type().endsWith("LocaleUpdatedEvent"))) {
                timesLogged.merge(event.name(), 1, Integer::sum);
                sequenceOf.put(event.name(), event.sequence());
            }
        }
        for (String name : ackedNames) {
            int times = timesLogged.getOrDefault(name, 0);
            if (times == 0) {
                lost.add(name);
            } else if (times > 1) {
                doubled.add(name + " x" + times);
            }
        }
        for (String name : uncertainNames) {
            if (timesLogged.getOrDefault(name, 0) > 1) {
                doubled.add(name + " x" + timesLogged.get(name) + " (no outcome known to the client)");
            }
        }
        // read-your-writes on hot locales: what a read showed was written no earlier than the reader's own write
        for (HotRead read : hotReads) {
            Long mine = sequenceOf.get(read.mine());
            Long seen = sequenceOf.get(read.seen());
            if (mine != null && (seen == null || seen < mine)) {
                violations.add("hot locale " + read.localeId() + ": read " + read.seen() + " (seq " + seen
                        + ") after own write " + read.mine() + " (seq " + mine + ")");
            }
        }
        // the read models against the log: every locale's final name, every project's count
        Map<String, String> finalName = new HashMap<>();
        Set<String> deleted = new HashSet<>();
        Map<String, String> projectOf = new HashMap<>();
        for (Logged event : log) {
            if (event.localeId() == null) {
                continue;
            }
            if (event.type().endsWith("LocaleDeletedEvent")) {
                deleted.add(event.localeId());
            } else if (event.name() != null && !event.type().endsWith("PrimaryLocaleChangedEvent")) {
                finalName.put(event.localeId(), event.name());
                projectOf.put(event.localeId(), event.aggregate());
            }
        }
        Api api = api(0);
        for (Worker worker : workers) {
            List<String> expected = finalName.keySet().stream()
                    .filter(id -> worker.projectId.equals(projectOf.get(id)) && !deleted.contains(id)).toList();
            Api.Answer page = api.get("/v2.0/locales?projectId=" + worker.projectId + "&limit=1");
            if (page.status() != 200 || page.body().get("total").longValue() != expected.size()) {
                modelMismatches.add("project " + worker.projectId + ": list total " + page.raw().body()
                        .replaceAll("(?s)\"items\".*?\\],", "") + ", log has " + expected.size());
            }
            for (String id : expected) {
                checkFinalName(api, id, finalName.get(id));
            }
        }
        for (String id : hotLocales) {
            checkFinalName(api, id, finalName.get(id));
        }
        // tasks: every acknowledged snapshot task ends, and ends done
        long deadline = System.nanoTime() + 120_000_000_000L;
        for (String task : ackedTasks) {
            while (true) {
                Api.Answer answer = api.get("/v2.0/tasks/" + task);
                String status = answer.status() == 200 ? answer.body().get("status").stringValue() : "HTTP " + answer.status();
                if (status.equals("done")) {
                    break;
                }
                if (status.equals("error") || status.equals("cancelled") || System.nanoTime() > deadline) {
                    taskFailures.add(task + ": " + status + " " + answer.raw().body());
                    break;
                }
                sleep(200);
            }
        }
        // call records: every acknowledged one counted, none twice
        Api.Answer counters = api.get("/v3.0/callcounter?from=2026-11-01&to=2026-11-01");
        finalProcessedCalls = counters.body().get("items").get(0).get("processedCalls").longValue();
        checkEventLog(api);
    }

    /**
     * The organisation's event log after the kills: positions 1..n without a gap, every event once, and exactly the
     * organisation's events in the store. Tasks are done by now, so the store is quiet; the log's processor may still
     * be a moment behind on the system's last task events, which nobody's read waits for: up to 30 s for them.
     */
    private void checkEventLog(Api api) throws Exception {
        Set<String> stored = new HashSet<>();
        try (Connection c = primary(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT event_identifier FROM domain_event_entry WHERE "
                     + "convert_from(payload, 'UTF8')::jsonb ->> 'organisationId' = (SELECT organisation_id FROM "
                     + "identity_api_key WHERE key_hash = encode(sha256(convert_to('" + Stack.ADMIN_KEY
                     + "', 'UTF8')), 'hex'))")) {
            while (rows.next()) {
                stored.add(rows.getString(1));
            }
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        List<String> problems = new ArrayList<>();
        do {
            problems.clear();
            java.net.http.HttpResponse<String> answer = api.text("/v2.0/eventlog", "application/x-ndjson");
            if (answer.statusCode() != 200) {
                problems.add("event log: HTTP " + answer.statusCode());
                continue;
            }
            List<String> ids = new ArrayList<>();
            long expected = 1;
            for (String line : answer.body().split("\n")) {
                tools.jackson.databind.JsonNode event = Api.JSON.readTree(line);
                if (event.get("position").longValue() != expected++) {
                    problems.add("event log: position " + event.get("position") + " where " + (expected - 1)
                            + " was due");
                    break;
                }
                ids.add(event.get("eventId").stringValue());
            }
            if (new HashSet<>(ids).size() != ids.size()) {
                problems.add("event log: an event appears twice");
            }
            if (!new HashSet<>(ids).equals(stored)) {
                problems.add("event log: " + ids.size() + " events, the store has " + stored.size());
            }
        } while (!problems.isEmpty() && System.nanoTime() < deadline && sleepAnd());
        problems.forEach(modelMismatches::add);
    }

    private static boolean sleepAnd() {
        sleep(500);
        return true;
    }

    private final List<String> lost = new ArrayList<>();
    private final List<String> doubled = new ArrayList<>();
    private final List<String> modelMismatches = new ArrayList<>();
    private final List<String> taskFailures = new ArrayList<>();
    private long finalProcessedCalls;

    private void checkFinalName(Api api, String localeId, String name) {
        Api.Answer read = api.get("/v2.0/locales/" + localeId);
        if (read.status() != 200 || !name.equals(read.body().get("name").stringValue())) {
            modelMismatches.add("locale " + localeId + ": read " + read.status() + " " + read.raw().body()
                    + ", log's last name " + name);
        }
    }

    private static String find(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? matcher.group(1) : null;
    }

    // ---- report

    /**
     * A write sent just after a command replica died may still leave on a keep-alive connection the gateway opened to
     * it before the kill, whose close the gateway's event loop has not read yet: the gateway cannot tell whether such
     * a write arrived, so it answers 502 and never sends it twice, as for a write in flight at the kill. (A connection
     * opened after the death is refused and retried on another replica; a 502 can only come from an older one.)
     */
    private static final long CLOSE_NOTICED_NANOS = 250_000_000L;

    private void report(long startupMillis, long loadSeconds) {
        List<Call> readFaults = new ArrayList<>();
        List<Call> writeFaultsInFlight = new ArrayList<>();
        List<Call> writeFaultsOther = new ArrayList<>();
        for (Call call : calls) {
            if (call.status() != 0 && call.status() < 500) {
                continue;
            }
            if (call.method().equals("GET")) {
                readFaults.add(call);
            } else if (kills.stream().anyMatch(k -> k.kind().equals("command")
                    && call.start() <= k.dead() + CLOSE_NOTICED_NANOS && k.at() <= call.end())) {
                writeFaultsInFlight.add(call);
            } else {
                writeFaultsOther.add(call);
            }
        }
        Map<String, List<Long>> takeOvers = new HashMap<>();
        for (Kill kill : kills) {
            if (kill.held() > 0) {
                takeOvers.computeIfAbsent(kill.kind(), k -> new ArrayList<>()).add(kill.takeOverMillis());
            }
        }
        StringBuilder out = new StringBuilder("\n==== SOAK REPORT ====\n");
        out.append(String.format("topology: 2 gateways, 3 command, 3 query replicas, PostgreSQL primary + streaming "
                + "standby (reads); startup %d ms%n", startupMillis));
        out.append(String.format("load: %d s, %d workers, %d writes, %d reads (%d waited for own writes)%n",
                loadSeconds, WORKERS, writes.get(), reads.get(), readsThatWaited.get()));
        out.append(String.format("kills: %d (%s)%n", kills.size(), kills.stream()
                .map(k -> k.kind() + "-" + k.index() + " held " + k.held() + " segments, all held again after "
                        + k.takeOverMillis() + " ms, back in " + backIn.get(k.at()) + " ms").toList()));
        takeOvers.forEach((kind, list) -> {
            Collections.sort(list);
            out.append(String.format("take-over after a %s kill that held segments: median %d ms, max %d ms (%d kills)%n", kind,
                    list.get(list.size() / 2), list.get(list.size() - 1), list.size()));
        });
        out.append(String.format("acknowledged writes lost: %d%n", lost.size()));
        out.append(String.format("events duplicated: %d%n", doubled.size()));
        out.append(String.format("5xx or no answer on reads: %d%n", readFaults.size()));
        out.append(String.format("5xx or no answer on writes: %d in flight on a killed command replica, %d other%n",
                writeFaultsInFlight.size(), writeFaultsOther.size()));
        out.append(String.format("read-your-writes violations: %d%n", violations.size()));
        out.append(String.format("read models differing from the log: %d%n", modelMismatches.size()));
        out.append(String.format("snapshot tasks: %d acknowledged, %d not done%n", ackedTasks.size(), taskFailures.size()));
        out.append(String.format("call records: %d acknowledged, %d without outcome, %d counted%n",
                ackedCallRecords.get(), uncertainCallRecords.get(), finalProcessedCalls));
        throughput.forEach((what, rate) -> out.append(String.format("throughput: %s: %.1f%n", what, rate)));
        out.append(String.format("unexpected: %d%n", unexpected.size()));
        out.append("=====================\n");
        System.out.print(out);
        readFaults.stream().limit(10).forEach(c -> System.out.println("read fault: " + c));
        writeFaultsOther.stream().limit(10).forEach(c -> System.out.println("write fault: " + c + ", kills at (ms "
                + "from its start): " + kills.stream().filter(k -> k.kind().equals("command"))
                .map(k -> (k.at() - c.start()) / 1_000_000 + ".." + (k.dead() - c.start()) / 1_000_000).toList()));
        violations.stream().limit(10).forEach(v -> System.out.println("violation: " + v));
        kills.forEach(k -> System.out.println("kill: " + k.kind() + "-" + k.index() + " at " + (k.at() - loadStart) / 1_000_000
                + " ms, back " + backIn.get(k.at()) + " ms later"));
        modelMismatches.stream().limit(10).forEach(v -> System.out.println("model: " + v));
        unexpected.stream().limit(10).forEach(v -> System.out.println("unexpected: " + v));

        assertThat(lost).as("acknowledged writes lost").isEmpty();
        assertThat(doubled).as("events duplicated").isEmpty();
        assertThat(readFaults).as("5xx on reads").isEmpty();
        assertThat(writeFaultsOther).as("5xx on writes not in flight on a killed replica").isEmpty();
        assertThat(violations).as("read-your-writes violations").isEmpty();
        assertThat(modelMismatches).as("read models against the log").isEmpty();
        assertThat(taskFailures).as("snapshot tasks").isEmpty();
        assertThat(finalProcessedCalls).as("call records counted")
                .isBetween(ackedCallRecords.get(), ackedCallRecords.get() + uncertainCallRecords.get());
        assertThat(unexpected).as("unexpected answers").isEmpty();
        assertThat(kills).as("kills").isNotEmpty();
        assertThat(kills).as("take-over measured").allMatch(k -> k.takeOverMillis() >= 0);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
