package ai.convo.query.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * BM25 fused with the real embedding model (all-MiniLM-L6-v2-q from its jar, in-process): a paraphrase that shares no
 * word with its chunk finds it first, which BM25 alone cannot; a query of stop words finds nothing.
 */
class HybridSearchTest {

    static final ChunkEmbedder EMBEDDER = new ChunkEmbedder();
    static final String PLANTED = "Refunds are paid within ten days after the returned item arrives.";
    static final String PARAPHRASE = "How long until I get my money back?";
    static List<ChunkSearch.Chunk> chunks;

    @BeforeAll
    static void embedded() {
        List<String> texts = List.of("Our shop opens at nine and closes at five on weekdays.",
                "Parking is free for customers in the garage behind the shop.",
                "Gift cards can be bought at the counter and online.",
                "Orders ship within two days; tracking numbers arrive by e-mail.",
                "Long sleeves and short sleeves: every shirt comes in both.",
                PLANTED,
                "Our newsletter brings offers every Monday; unsubscribe with one click.");
        List<float[]> vectors = EMBEDDER.embed(texts);
        chunks = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            chunks.add(new ChunkSearch.Chunk("c" + i, texts.get(i), vectors.get(i)));
        }
    }

    @Test
    void givenEmbeddedChunks_whenAParaphraseWithNoSharedWordIsSearched_thenItsChunkComesFirstByVector() {
        // given: "long" of the query is also in a chunk about sleeves, BM25's only (weak) match
        // when
        ChunkSearch.Result result = ChunkSearch.search("en-US", chunks, PARAPHRASE, EMBEDDER.embed(PARAPHRASE), 3);
        // then
        ChunkSearch.Hit first = result.hits().get(0);
        assertThat(first.id()).isEqualTo("c5");
        assertThat(first.bm25()).isNull(); // no shared term: BM25 alone does not find it
        assertThat(first.vectorRank()).isEqualTo(1);
        assertThat(first.similarity()).isGreaterThan(ChunkSearch.MIN_SIMILARITY);
        assertThat(ChunkSearch.search("en-US", chunks, PARAPHRASE, 3).hits()).extracting(ChunkSearch.Hit::id)
                .doesNotContain("c5");
    }

    @Test
    void givenEmbeddedChunks_whenTheWordsMatchToo_thenBothRankingsExplainTheHit() {
        ChunkSearch.Result result = ChunkSearch.search("en-US", chunks, "refund paid", EMBEDDER.embed("refund paid"), 3);
        ChunkSearch.Hit first = result.hits().get(0);
        assertThat(first.id()).isEqualTo("c5");
        assertThat(first.bm25Rank()).isEqualTo(1);
        assertThat(first.vectorRank()).isEqualTo(1);
        assertThat(first.score()).isEqualTo(2.0 / (ChunkSearch.RRF_K + 1));
    }

    @Test
    void givenEmbeddedChunks_whenOnlyStopWordsAreSearched_thenNothingIsFound() {
        assertThat(ChunkSearch.search("en-US", chunks, "the and of", EMBEDDER.embed("the and of"), 5).hits())
                .isEmpty();
    }

    @Test
    void givenTexts_whenEmbedded_thenUnitVectorsOfTheModelsDimensionsAndAParaphraseIsNearerThanAnUnrelatedText() {
        float[] planted = chunks.get(5).vector();
        float[] paraphrase = EMBEDDER.embed(PARAPHRASE);
        assertThat(planted).hasSize(ChunkEmbedder.DIMENSIONS);
        assertThat(dot(planted, planted)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(dot(paraphrase, planted)).isGreaterThan(dot(paraphrase, chunks.get(1).vector()) + 0.2);
        // stored as bytes and read back unchanged
        assertThat(ChunkEmbeddings.vector(java.nio.ByteBuffer.wrap(ChunkEmbeddings.bytes(planted)))).isEqualTo(planted);
    }

    private static double dot(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
