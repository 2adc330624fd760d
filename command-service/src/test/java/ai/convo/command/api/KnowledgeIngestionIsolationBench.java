package ai.convo.command.api;

import ai.convo.command.knowledge.ingest.Documents;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.web.reactive.function.BodyInserters;

/**
 * Not part of the suite (its name ends in Bench): run with -Dtest=KnowledgeIngestionIsolationBench. Organisation A
 * ingests a 400-page PDF over and over in two projects (both runner threads, the one-parse-at-a-time reader always
 * busy) while organisation B edits a source (PATCH) and uploads a one-page PDF; B's latencies against an idle
 * baseline in the same run: medians and p90 of 40 edits, and of 5 uploads' time until their task is done.
 */
class KnowledgeIngestionIsolationBench extends SnapshotWorkSupport {

    private static final String LINE = "The customer service desk opens at nine and closes at five on weekdays.";

    private String store(String key, String name) {
        String projectId = (String) createProject(key, name + " " + UUID.randomUUID(), "en-US").get("_id");
        return (String) http.post().uri("/v2.0/knowledgestores").header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", projectId, "name", "Docs",
                        "language", "en-US")).exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("_id");
    }

    @SuppressWarnings("unchecked")
    private String upload(String key, String storeId, byte[] file, String name) {
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("file", new ByteArrayResource(file) {
            @Override
            public String getFilename() {
                return name;
            }
        });
        Map<String, Object> task = http.post().uri("/v2.0/knowledgestores/" + storeId + "/sources/upload")
                .header("X-API-Key", key).contentType(MediaType.MULTIPART_FORM_DATA)
                .body(BodyInserters.fromMultipartData(parts.build())).exchange().expectStatus().isAccepted()
                .expectBody(Map.class).returnResult().getResponseBody();
        return (String) task.get("_id");
    }

    private String awaitLong(String taskId) {
        long deadline = System.currentTimeMillis() + 600_000;
        while (!List.of("done", "error", "cancelled").contains(status(taskId))) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("task " + taskId + " did not end");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        return status(taskId);
    }

    private record Figures(List<Long> edits, List<Long> uploads, List<Long> queued) {
    }

    /** From the task's creation to its start (waiting for a runner thread), from the events' timestamps. */
    private long queuedNanos(String taskId) {
        Double millis = jdbc.queryForObject("SELECT extract(epoch FROM (max(time_stamp::timestamptz) FILTER (WHERE "
                + "payload_type LIKE '%TaskStartedEvent') - min(time_stamp::timestamptz))) * 1000 FROM "
                + "domain_event_entry WHERE aggregate_identifier = ?", Double.class, taskId);
        return (long) (millis * 1e6);
    }

    @SuppressWarnings("unchecked")
    private Figures measureB(String keyB, String storeB, String sourceB, byte[] small, String round) {
        List<Long> edits = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long start = System.nanoTime();
            http.patch().uri("/v2.0/knowledgestores/" + storeB + "/sources/" + sourceB).header("X-API-Key", keyB)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Edit " + round + " " + i))
                    .exchange().expectStatus().isOk();
            edits.add(System.nanoTime() - start);
        }
        List<Long> uploads = new ArrayList<>();
        List<Long> queued = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            String task = upload(keyB, storeB, small, "b-" + round + "-" + i + ".pdf");
            String end = awaitLong(task);
            uploads.add(System.nanoTime() - start);
            queued.add(queuedNanos(task));
            if (!end.equals("done")) {
                throw new AssertionError("B's upload ended " + end + ": " + failReason(task));
            }
        }
        return new Figures(edits, uploads, queued);
    }

    private static String stats(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return String.format(Locale.ROOT, "median %.1f ms, p90 %.1f ms, max %.1f ms", sorted.get(sorted.size() / 2) / 1e6,
                sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1) / 1e6, sorted.get(sorted.size() - 1) / 1e6);
    }

    @Test
    @SuppressWarnings("unchecked")
    void measure() throws Exception {
        String keyA = ADMIN_KEY;
        String keyB = otherOrganisationKey("bench-" + UUID.randomUUID() + "@example.com");
        List<String> storesA = List.of(store(keyA, "A1"), store(keyA, "A2"));
        String storeB = store(keyB, "B");
        String sourceB = (String) ((Map<String, Object>) http.post().uri("/v2.0/knowledgestores/" + storeB + "/sources")
                .header("X-API-Key", keyB).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Manual", "type", "manual", "data", Map.of("text", "Hello.")))
                .exchange().expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody()
                .get("knowledgeSource")).get("_id");
        String[] pages = new String[400];
        for (int i = 0; i < pages.length; i++) {
            StringBuilder text = new StringBuilder("Page " + i + ".");
            for (int l = 0; l < 40; l++) {
                text.append('\n').append(LINE);
            }
            pages[i] = text.toString();
        }
        byte[] big = Documents.pdf(pages);
        byte[] small = Documents.pdf("One page for organisation B.");

        // warm-up, then B alone
        awaitLong(upload(keyA, storesA.get(0), big, "warm.pdf"));
        measureB(keyB, storeB, sourceB, small, "warm");
        Figures idle = measureB(keyB, storeB, sourceB, small, "idle");

        // A ingests the 400-page PDF over and over in two projects
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicInteger ingestedByA = new AtomicInteger();
        List<Long> aTimes = Collections.synchronizedList(new ArrayList<>());
        List<Thread> loaders = new ArrayList<>();
        for (String storeA : storesA) {
            Thread loader = new Thread(() -> {
                for (int n = 0; loading.get(); n++) {
                    long start = System.nanoTime();
                    String end = awaitLong(upload(keyA, storeA, big, "a-" + n + ".pdf"));
                    aTimes.add(System.nanoTime() - start);
                    if (end.equals("done")) {
                        ingestedByA.incrementAndGet();
                    }
                }
            }, "org-a-load");
            loader.start();
            loaders.add(loader);
        }
        Thread.sleep(2_000);
        Figures loaded = measureB(keyB, storeB, sourceB, small, "loaded");
        loading.set(false);
        for (Thread loader : loaders) {
            loader.join();
        }
        System.out.printf(Locale.ROOT, "BENCH 400-page pdf: %d bytes; A ingested %d during the loaded round; A's upload "
                + "to done: %s%n", big.length, ingestedByA.get(), stats(aTimes));
        System.out.println("BENCH B edit (PATCH source) idle:   " + stats(idle.edits()));
        System.out.println("BENCH B edit (PATCH source) loaded: " + stats(loaded.edits()));
        System.out.println("BENCH B 1-page upload to done idle:   " + stats(idle.uploads()));
        System.out.println("BENCH B 1-page upload to done loaded: " + stats(loaded.uploads()));
        System.out.println("BENCH B upload waiting for a runner idle:   " + stats(idle.queued()));
        System.out.println("BENCH B upload waiting for a runner loaded: " + stats(loaded.queued()));
    }
}
