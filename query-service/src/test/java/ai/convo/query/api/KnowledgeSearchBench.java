package ai.convo.query.api;

import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (its name ends in Bench): run with -Dtest=KnowledgeSearchBench. The search route over HTTP
 * on a store of 10,000 chunks of ~1,800 characters (10 sources of 1,000): the first search (index built), then p50/p99
 * of 100 searches of the kept index, and the planted answer's rank. Every chunk is given an embedding row directly
 * (random unit vectors: the scan costs the same whatever their values; embedding 10,000 chunks would take minutes),
 * so the searches are hybrid, the query embedded by the real model. The process's VmRSS/VmHWM at each step.
 */
class KnowledgeSearchBench extends QueryTestBase {

    private static final String[] WORDS = ("order shipping delivery parcel customer service desk weekday opening hours "
            + "invoice payment card account password login voucher discount warehouse courier address return label "
            + "exchange size colour stock availability newsletter privacy cookie contract warranty repair battery "
            + "charger screen keyboard printer ink paper cable adapter subscription renewal cancellation").split(" ");

    private static String memory() throws java.io.IOException {
        StringBuilder found = new StringBuilder();
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:") || line.startsWith("VmHWM:")) {
                found.append(line.replaceAll("\\s+", " ")).append(' ');
            }
        }
        Runtime runtime = Runtime.getRuntime();
        return found + "heap used=" + ((runtime.totalMemory() - runtime.freeMemory()) >> 20) + " MB";
    }

    @Test
    @SuppressWarnings("unchecked")
    void measure() throws Exception {
        System.out.println("BENCH memory at start (no model yet): " + memory());
        Caller caller = newOrganisation();
        String projectId = project(caller, "Search bench", 1000).id();
        String storeId = Ids.newId();
        append(storeId, new KnowledgeStoreCreatedEvent(storeId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "Big", "", "en-US", caller.userId(), 1000));
        String baselineId = Ids.newId();
        append(baselineId, new KnowledgeStoreCreatedEvent(baselineId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "Baseline", "", "pl-PL", caller.userId(), 1000));
        Random random = new Random(42);
        long position = 0;
        String planted = null;
        List<String> texts = new ArrayList<>();
        for (int s = 0; s < 10; s++) {
            String sourceId = Ids.newId();
            append(sourceId, new KnowledgeSourceCreatedEvent(sourceId, storeId, projectId, caller.organisationId(),
                    UUID.randomUUID().toString(), "Source " + s, "", "manual", "ready", 0, List.of(), Map.of(),
                    caller.userId(), 1000));
            for (int c = 0; c < 1_000; c++) {
                StringBuilder text = new StringBuilder();
                while (text.length() < 1_800) {
                    text.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(8) == 0 ? ". " : " ");
                }
                String chunkId = Ids.newId();
                if (s == 5 && c == 500) {
                    planted = chunkId;
                    text = new StringBuilder("Refunds are paid within ten days after the returned item arrives.");
                }
                position = append(sourceId, new KnowledgeChunkCreatedEvent(chunkId, sourceId, storeId, projectId,
                        caller.organisationId(), UUID.randomUUID().toString(), c, text.toString(), false, Map.of(),
                        c + 1, caller.userId(), 1000));
                texts.add(text.toString());
            }
        }
        for (int s = 0; s < 10; s++) {
            String sourceId = Ids.newId();
            append(sourceId, new KnowledgeSourceCreatedEvent(sourceId, baselineId, projectId, caller.organisationId(),
                    UUID.randomUUID().toString(), "Source " + s, "", "manual", "ready", 0, List.of(), Map.of(),
                    caller.userId(), 1000));
            for (int c = 0; c < 1_000; c++) {
                position = append(sourceId, new KnowledgeChunkCreatedEvent(Ids.newId(), sourceId, baselineId,
                        projectId, caller.organisationId(), UUID.randomUUID().toString(), c, texts.get(s * 1_000 + c),
                        false, Map.of(), c + 1, caller.userId(), 1000));
            }
        }
        long at = position;
        java.util.function.Supplier<Map<String, Object>> search = () -> http.get().uri("/v2.0/knowledgestores/{s}/search?query={q}", storeId, "when is my refund paid")
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(at)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        // the projections reach the last event first, so the first search measures the index build alone
        http.get().uri("/v2.0/knowledgestores/{s}", storeId).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(at)).exchange().expectStatus().isOk();
        List<String> ids = jdbc.queryForList("SELECT id FROM knowledge_chunk_view WHERE store_id = ?", String.class,
                storeId);
        List<Object[]> rows = new ArrayList<>();
        for (String id : ids) {
            java.nio.ByteBuffer vector = java.nio.ByteBuffer.allocate(384 * 4);
            double[] values = new double[384];
            double norm = 0;
            for (int d = 0; d < 384; d++) {
                values[d] = random.nextGaussian();
                norm += values[d] * values[d];
            }
            for (int d = 0; d < 384; d++) {
                vector.putFloat((float) (values[d] / Math.sqrt(norm)));
            }
            rows.add(new Object[] {vector.array(), id});
        }
        jdbc.batchUpdate("INSERT INTO knowledge_chunk_embedding (chunk_id, organisation_id, chunk_version, text_md5, "
                + "model, vector) SELECT c.id, c.organisation_id, c.xmin::text::bigint, md5(c.text), "
                + "'all-MiniLM-L6-v2-q', ? FROM knowledge_chunk_view c WHERE c.id = ? ON CONFLICT DO NOTHING", rows);
        System.out.println("BENCH memory with 10,000 chunks projected: " + memory());
        java.util.function.Supplier<Map<String, Object>> baseline = () -> http.get()
                .uri("/v2.0/knowledgestores/{s}/search?query={q}", baselineId, "when is my refund paid")
                .header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(at)).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        long start = System.nanoTime();
        Map<String, Object> first = search.get();
        double firstMillis = (System.nanoTime() - start) / 1e6;
        start = System.nanoTime();
        Map<String, Object> firstBaseline = baseline.get();
        double firstBaselineMillis = (System.nanoTime() - start) / 1e6;
        for (int i = 0; i < 5; i++) {
            search.get();
            baseline.get();
        }
        List<Long> nanos = new ArrayList<>();
        List<Long> baselineNanos = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            long t = System.nanoTime();
            search.get();
            long u = System.nanoTime();
            baseline.get();
            nanos.add(u - t);
            baselineNanos.add(System.nanoTime() - u);
        }
        Collections.sort(nanos);
        Collections.sort(baselineNanos);
        System.out.printf(Locale.ROOT, "BENCH route search (same-run baseline) method=%s searched=%s first (build)=%.0f ms "
                + "kept p50=%.1f ms p99=%.1f ms%n", firstBaseline.get("method"), firstBaseline.get("searched"),
                firstBaselineMillis, baselineNanos.get(50) / 1e6, baselineNanos.get(98) / 1e6);
        List<Map<String, Object>> items = (List<Map<String, Object>>) first.get("items");
        if (items.isEmpty()) {
            throw new AssertionError("nothing found: " + first + "; chunks projected: " + jdbc.queryForObject(
                    "SELECT count(*) FROM knowledge_chunk_view WHERE store_id = ?", Long.class, storeId));
        }
        String top = (String) ((Map<String, Object>) items.get(0).get("knowledgeChunk")).get("_id");
        System.out.printf(Locale.ROOT, "BENCH route search method=%s searched=%s embedded=%s first (build)=%.0f ms "
                + "kept p50=%.1f ms p99=%.1f ms planted first=%s%n", first.get("method"), first.get("searched"),
                first.get("embedded"), firstMillis, nanos.get(50) / 1e6, nanos.get(98) / 1e6, top.equals(planted));
        System.out.println("BENCH memory after the searches (model loaded, index kept): " + memory());
    }
}
