package ai.convo.query.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Kept indexes: found only for the fingerprint they were built from, and bounded by their chunks in all. */
class StoreIndexesTest {

    private static ChunkSearch.Index index(int chunks) {
        return ChunkSearch.build("en-US", IntStream.range(0, chunks)
                .mapToObj(i -> new ChunkSearch.Chunk("c" + i, "refund number " + i)).toList());
    }

    @Test
    void givenAKeptIndex_whenAskedWithAnotherFingerprint_thenNotFound() {
        // given
        StoreIndexes indexes = new StoreIndexes();
        ChunkSearch.Index built = index(3);
        indexes.keep("org|store", "en-US|3|42", built);
        // when / then
        assertThat(indexes.find("org|store", "en-US|3|42")).isSameAs(built);
        assertThat(indexes.find("org|store", "en-US|3|43")).isNull();
        assertThat(indexes.find("other|store", "en-US|3|42")).isNull();
    }

    @Test
    void givenIndexesPastTheBound_whenKept_thenTheLeastRecentlyUsedAreDropped() {
        // given
        StoreIndexes indexes = new StoreIndexes();
        int each = StoreIndexes.MAX_CHUNKS / 3 + 1;
        indexes.keep("a", "f", index(each));
        indexes.keep("b", "f", index(each));
        indexes.find("a", "f"); // a used after b
        // when
        indexes.keep("c", "f", index(each));
        // then
        assertThat(indexes.find("b", "f")).isNull();
        assertThat(List.of("a", "c")).allSatisfy(key -> assertThat(indexes.find(key, "f")).isNotNull());
    }

    @Test
    void givenAPlantedChunk_whenSearched_thenFirstWithItsMatchedTerms() {
        ChunkSearch.Result result = ChunkSearch.search("en-US", List.of(
                new ChunkSearch.Chunk("a", "Parking is free behind the shop."),
                new ChunkSearch.Chunk("b", "Refunds are paid within ten days.")), "when is my refund paid", 5);
        assertThat(result.hits()).extracting(ChunkSearch.Hit::id).containsExactly("b");
        assertThat(ChunkSearch.matched("en-US", result.queryTerms(), "Refunds are paid within ten days."))
                .containsExactly("refund", "paid");
    }
}
