package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix (deploy/fault-matrix.sh; not part of the build's tests): one gateway, one command and one query
 * service on a PostgreSQL of their own, under writes and reads through the gateway, while each kind of process is
 * SIGKILLed and restarted, and PostgreSQL is stopped for OUTAGE seconds and started again. For every fault it reports
 * what clients got until the process is back and writes and reads work again (answers by status, 503s with
 * Retry-After, 502s of requests in flight at a kill, requests with no HTTP answer, the longest request) and how long
 * that took; at the end, that every acknowledged write is there. It fails on any other 5xx, on a request slower than
 * the bound, and on a lost acknowledged write.
 */
class FaultMatrixBench {

    private static final int WRITERS = Integer.getInteger("faults.writers", 4);
    private static final int OUTAGE_SECONDS = Integer.getInteger("faults.outage-seconds", 15);
    private static final long BOUND_MILLIS = 35_000;

    /** One request: when it started and ended, and what it got (-1: no HTTP answer). */
    record Call(String kind, long start, long end, int status, boolean retryAfter) {
    }

    /** The fault happened between {@code start} and {@code struck} (a kill's signal sent, the database stopped). */
    record Fault(String name, long start, long struck, long end, long recovered) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    /** Per locale: the last acknowledged name, and every name sent after it whose answer never came. */
    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, List<String>> unsure = new ConcurrentHashMap<>();

    @Test
    void everyFaultGivesClientsOnly503sWithRetryAfterOrNoAnswerAndLosesNoAcknowledgedWrite() throws Exception {
        try (Stack stack = new Stack(new Stack.Layout(1, 1, 1, false, false, Map.of(), true))) {
            Api api = Api.withKey(stack.baseUrl(), Stack.ADMIN_KEY);
            Api.Answer project = api.post("/v2.0/projects", Map.of("name", "Faults", "locale", "en-US"));
            assertThat(project.status()).as(project.raw().body()).isEqualTo(201);
            List<String> locales = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                Api.Answer locale = api.post("/v2.0/locales", Map.of("projectId", project.body().get("_id").stringValue(),
                        "name", "fault-" + i, "nluLanguage", "de-DE"));
                assertThat(locale.status()).as(locale.raw().body()).isEqualTo(201);
                locales.add(locale.body().get("_id").stringValue());
            }
            List<Thread> load = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                String locale = locales.get(i);
                int writer = i;
                load.add(new Thread(() -> write(api, locale, writer), "writer-" + i));
                load.add(new Thread(() -> read(api, locale), "reader-" + i));
            }
            for (Thread thread : load) {
                thread.start();
            }
            List<Fault> faults = new ArrayList<>();
            pause(5_000);
            faults.add(fault("command service SIGKILL", () -> stack.commands.get(0).kill(), () -> stack.startCommand(0)));
            faults.add(fault("query service SIGKILL", () -> stack.queries.get(0).kill(), () -> stack.startQuery(0)));
            faults.add(fault("gateway SIGKILL", () -> stack.gateways.get(0).kill(), () -> stack.startGateway(0)));
            faults.add(fault("PostgreSQL stopped " + OUTAGE_SECONDS + " s", stack::stopDatabase, () -> {
                pause(OUTAGE_SECONDS * 1000L);
                stack.startDatabase();
            }));
            running.set(false);
            for (Thread thread : load) {
                thread.join(60_000);
            }
            List<String> lost = lostWrites(api, locales);
            report(faults, lost);
            for (Call call : calls) {
                // a write running on the killed command service has no answer to give: the gateway says 502
                boolean inFlightAtAKill = faults.stream().anyMatch(f -> f.name().endsWith("SIGKILL")
                        && call.start() <= f.struck() && call.end() >= f.start());
                assertThat(call.status() < 500 || (call.status() == 503 && call.retryAfter())
                        || (call.status() == 502 && inFlightAtAKill))
                        .as("%s answered %s", call.kind(), call.status()).isTrue();
                assertThat((call.end() - call.start()) / 1_000_000).as("%s took (ms)", call.kind()).isLessThan(BOUND_MILLIS);
            }
            assertThat(lost).isEmpty();
        }
    }

    private interface Action {
        void run() throws Exception;
    }

    /** Strikes, recovers (restart), then waits for writes to succeed again; 5 s of quiet load after. */
    private Fault fault(String name, Action strike, Action recover) throws Exception {
        long start = System.nanoTime();
        strike.run();
        long struck = System.nanoTime();
        recover.run();
        long end = System.nanoTime();
        // recovered: writes and reads both answered 2xx again, after the strike (not necessarily after the restart:
        // a query service's death does not stop writes)
        long recovered = -1;
        while (System.nanoTime() - end < 120_000_000_000L) {
            long write = firstOk("write", struck);
            long read = firstOk("read", struck);
            if (write > 0 && read > 0) {
                recovered = Math.max(write, read);
                break;
            }
            pause(100);
        }
        pause(5_000);
        return new Fault(name, start, struck, end, recovered);
    }

    /** When the first request of this kind started after {@code after} ended with a 2xx; -1 if none yet. */
    private long firstOk(String kind, long after) {
        return calls.stream().filter(c -> c.kind().equals(kind) && c.start() > after && c.status() >= 200
                && c.status() < 300).mapToLong(Call::end).min().orElse(-1);
    }

    private void write(Api api, String locale, int writer) {
        int seq = 0;
        while (running.get()) {
            String name = "w" + writer + "-" + (++seq);
            Call call = call("write", () -> api.patch("/v2.0/locales/" + locale, Map.of("name", name)));
            if (call.status() == 200) {
                acknowledged.put(locale, name);
                unsure.remove(locale);
            } else if (call.status() < 0 || call.status() >= 500) {
                unsure.computeIfAbsent(locale, l -> new CopyOnWriteArrayList<>()).add(name);
            }
            pause(call.status() == 200 ? 20 : 200);
        }
    }

    private void read(Api api, String locale) {
        while (running.get()) {
            Call call = call("read", () -> api.get("/v2.0/locales/" + locale));
            pause(call.status() == 200 ? 20 : 200);
        }
    }

    private interface Request {
        Api.Answer send();
    }

    private Call call(String kind, Request request) {
        long start = System.nanoTime();
        Call call;
        try {
            Api.Answer answer = request.send();
            call = new Call(kind, start, System.nanoTime(), answer.status(), answer.header("Retry-After") != null);
        } catch (RuntimeException e) {
            call = new Call(kind, start, System.nanoTime(), -1, false);
        }
        calls.add(call);
        return call;
    }

    /** Each locale's name now must be its last acknowledged one, or one sent after it whose answer never came. */
    private List<String> lostWrites(Api api, List<String> locales) {
        List<String> lost = new ArrayList<>();
        for (String locale : locales) {
            Api.Answer read = api.get("/v2.0/locales/" + locale);
            String name = read.body().get("name").stringValue();
            String expected = acknowledged.get(locale);
            if (expected != null && !name.equals(expected) && !unsure.getOrDefault(locale, List.of()).contains(name)) {
                lost.add(locale + ": reads '" + name + "', acknowledged '" + expected + "'");
            }
        }
        return lost;
    }

    private void report(List<Fault> faults, List<String> lost) {
        StringBuilder out = new StringBuilder("==== FAULT MATRIX ====\n");
        out.append("| fault | requests until the process is back and writes and reads work | 2xx/4xx | 503 with Retry-After | 502 (in flight at the kill) "
                + "| other 5xx | no HTTP answer | longest request | writes and reads work again after | process back after |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Fault fault : faults) {
            long until = Math.max(fault.end(), fault.recovered());
            List<Call> window = calls.stream().filter(c -> c.start() >= fault.start() && c.start() <= until).toList();
            Map<String, Long> by = new TreeMap<>();
            window.forEach(c -> by.merge(c.status() < 0 ? "none" : c.status() == 503 && c.retryAfter() ? "503ra"
                    : c.status() == 502 && c.start() <= fault.struck() ? "502flight" : c.status() >= 500 ? "5xx" : "ok",
                    1L, Long::sum));
            out.append("| ").append(fault.name()).append(" | ").append(window.size()).append(" | ")
                    .append(by.getOrDefault("ok", 0L)).append(" | ").append(by.getOrDefault("503ra", 0L)).append(" | ")
                    .append(by.getOrDefault("502flight", 0L)).append(" | ").append(by.getOrDefault("5xx", 0L)).append(" | ").append(by.getOrDefault("none", 0L)).append(" | ")
                    .append(window.stream().mapToLong(c -> (c.end() - c.start()) / 1_000_000).max().orElse(0))
                    .append(" ms | ").append(fault.recovered() < 0 ? "never"
                            : (fault.recovered() - fault.start()) / 1_000_000 + " ms").append(" | ")
                    .append((fault.end() - fault.start()) / 1_000_000).append(" ms |\n");
        }
        out.append("acknowledged writes lost: ").append(lost.size()).append(lost.isEmpty() ? "" : " " + lost)
                .append("; requests in all: ").append(calls.size()).append("\n=====================\n");
        System.out.print(out);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
