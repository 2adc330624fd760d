package ai.convo.query.knowledge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (its name ends in Bench): run with -Dtest=ChunkSearchBench. A search over 1,000 and 10,000
 * chunks of ~1,800 characters: built and searched (a store's first search, or after a change), p50/p99 of 30 after
 * 5 warm-up ones; and searches of the kept index (every other search), p50/p99 of 200.
 */
class ChunkSearchBench {

    private static final String[] WORDS = ("order shipping delivery parcel customer service desk weekday opening hours "
            + "invoice payment card account password login voucher discount warehouse courier address return label "
            + "exchange size colour stock availability newsletter privacy cookie contract warranty repair battery "
            + "charger screen keyboard printer ink paper cable adapter subscription renewal cancellation").split(" ");

    private static List<ChunkSearch.Chunk> chunks(int count) {
        Random random = new Random(42);
        List<ChunkSearch.Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 1_800) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(8) == 0 ? ". " : " ");
            }
            chunks.add(new ChunkSearch.Chunk("c" + i, text.toString()));
        }
        chunks.set(count / 2, new ChunkSearch.Chunk("planted", "Refunds are paid within ten days after the returned "
                + "item arrives at our warehouse."));
        return chunks;
    }

    @Test
    void measure() {
        for (int count : new int[] {1_000, 10_000}) {
            List<ChunkSearch.Chunk> chunks = chunks(count);
            for (int i = 0; i < 5; i++) {
                ChunkSearch.search("en-US", chunks, "when is my refund paid", 10);
            }
            List<Long> nanos = new ArrayList<>();
            String first = null;
            for (int i = 0; i < 30; i++) {
                long start = System.nanoTime();
                ChunkSearch.Result result = ChunkSearch.search("en-US", chunks, "when is my refund paid", 10);
                nanos.add(System.nanoTime() - start);
                first = result.hits().get(0).id();
            }
            Collections.sort(nanos);
            System.out.printf(Locale.ROOT, "BENCH build+search chunks=%d p50=%.1f ms p99=%.1f ms first=%s%n", count,
                    nanos.get(15) / 1e6, nanos.get(29) / 1e6, first);
            // the route's usual path: the kept index, searched
            try (ChunkSearch.Index index = ChunkSearch.build("en-US", chunks)) {
                List<Long> kept = new ArrayList<>();
                for (int i = 0; i < 205; i++) {
                    long start = System.nanoTime();
                    first = index.search("when is my refund paid", 10).hits().get(0).id();
                    if (i >= 5) {
                        kept.add(System.nanoTime() - start);
                    }
                }
                Collections.sort(kept);
                System.out.printf(Locale.ROOT, "BENCH kept-index search chunks=%d p50=%.2f ms p99=%.2f ms first=%s%n",
                        count, kept.get(100) / 1e6, kept.get(197) / 1e6, first);
            }
        }
    }
}
