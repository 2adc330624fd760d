package ai.convo.query.knowledge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (its name ends in Bench): run with -Dtest=HybridSearchBench. The embedding model's throughput
 * on ~1,800-character chunks (batches of 16, as the worker takes them; median of 3 runs of 96 after a warm-up), then
 * a kept index of 10,000 chunks with vectors: searches p50/p99 of 200 after 20 warm-up ones, with the query embedded
 * (the route's path) and BM25 alone on the same index (the same run's baseline); heap and process memory (VmRSS,
 * VmHWM) at each step. The 10,000 chunks reuse 480 computed vectors in turn: a search scans every vector whatever
 * its values.
 */
class HybridSearchBench {

    private static String text(Random random) {
        StringBuilder text = new StringBuilder();
        String[] words = ("order shipping delivery parcel customer service desk weekday opening hours invoice payment "
                + "card account password login voucher discount warehouse courier address return label exchange size "
                + "colour stock availability newsletter privacy cookie contract warranty repair battery charger screen "
                + "keyboard printer ink paper cable adapter subscription renewal cancellation").split(" ");
        while (text.length() < 1_800) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(8) == 0 ? ". " : " ");
        }
        return text.toString();
    }

    private static String memory(String step) throws Exception {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        long heap = (runtime.totalMemory() - runtime.freeMemory()) >> 20;
        String rss = "", hwm = "";
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = line.substring(6).trim();
            } else if (line.startsWith("VmHWM:")) {
                hwm = line.substring(6).trim();
            }
        }
        return String.format(Locale.ROOT, "BENCH memory %-28s heap used=%d MB VmRSS=%s VmHWM=%s", step, heap, rss, hwm);
    }

    @Test
    void measure() throws Exception {
        System.out.println(memory("before the model"));
        ChunkEmbedder embedder = new ChunkEmbedder();
        long load = System.nanoTime();
        embedder.embed("warm up");
        System.out.printf(Locale.ROOT, "BENCH model load + first embedding %.0f ms%n", (System.nanoTime() - load) / 1e6);
        System.out.println(memory("model loaded"));
        Random random = new Random(42);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 96 * 3 + 16; i++) {
            texts.add(text(random));
        }
        embedder.embed(texts.subList(0, 16));
        List<float[]> vectors = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            long start = System.nanoTime();
            for (int b = 0; b < 96; b += 16) {
                int from = 16 + run * 96 + b;
                vectors.addAll(embedder.embed(texts.subList(from, from + 16)));
            }
            rates.add(96 / ((System.nanoTime() - start) / 1e9));
        }
        Collections.sort(rates);
        System.out.printf(Locale.ROOT, "BENCH embed chunks of 1,800 chars: %.1f chunks/s median (runs %s), %.1f ms/chunk%n",
                rates.get(1), rates, 1000 / rates.get(1));
        System.out.println(memory("after embedding"));

        int count = 10_000;
        List<ChunkSearch.Chunk> chunks = new ArrayList<>();
        Random words = new Random(7);
        for (int i = 0; i < count; i++) {
            chunks.add(new ChunkSearch.Chunk("c" + i, text(words), vectors.get(i % vectors.size())));
        }
        String planted = "Refunds are paid within ten days after the returned item arrives at our warehouse.";
        chunks.set(count / 2, new ChunkSearch.Chunk("planted", planted, embedder.embed(planted)));
        long build = System.nanoTime();
        try (ChunkSearch.Index index = ChunkSearch.build("en-US", chunks)) {
            System.out.printf(Locale.ROOT, "BENCH build chunks=%d embedded=%d %.0f ms%n", index.size(),
                    index.embedded(), (System.nanoTime() - build) / 1e6);
            chunks = null;
            System.out.println(memory("index of 10,000 kept"));
            String query = "how soon do I get my money back";
            List<Long> hybrid = new ArrayList<>();
            List<Long> bm25 = new ArrayList<>();
            String first = null;
            for (int i = 0; i < 220; i++) {
                long start = System.nanoTime();
                first = index.search(query, embedder.embed(query), 10).hits().get(0).id();
                long mid = System.nanoTime();
                index.search("when is my refund paid", 10);
                long end = System.nanoTime();
                if (i >= 20) {
                    hybrid.add(mid - start);
                    bm25.add(end - mid);
                }
            }
            Collections.sort(hybrid);
            Collections.sort(bm25);
            System.out.printf(Locale.ROOT, "BENCH kept-index hybrid search (query embedded) chunks=%d p50=%.2f ms "
                    + "p99=%.2f ms first=%s%n", count, hybrid.get(100) / 1e6, hybrid.get(197) / 1e6, first);
            System.out.printf(Locale.ROOT, "BENCH kept-index bm25 search (baseline) chunks=%d p50=%.2f ms p99=%.2f ms%n",
                    count, bm25.get(100) / 1e6, bm25.get(197) / 1e6);
            System.out.println(memory("after searches"));
        }
    }
}
