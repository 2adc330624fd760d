package ai.convo.command.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CTXT and prose into chunks: header data, blank-line chunks, merging up to 2,000 characters on sentences, order. */
class ChunkingTest {

    @Test
    void givenCtxt_whenChunked_thenTheHeaderIsEveryChunksDataAndBlankLinesSeparateChunks() {
        // given
        String ctxt = "`title: Opening hours`\n`source: handbook`\n\nWe open at nine.\nOn weekdays.\n\n  \n"
                + "We close at five.\r\n\r\nHolidays differ.";
        // when
        List<Chunking.Draft> chunks = Chunking.ctxt(ctxt);
        // then
        assertThat(Chunking.isCtxt(ctxt)).isTrue();
        assertThat(chunks).extracting(Chunking.Draft::text)
                .containsExactly("We open at nine.\nOn weekdays.", "We close at five.", "Holidays differ.");
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.data())
                .isEqualTo(Map.of("title", "Opening hours", "source", "handbook")));
    }

    @Test
    void givenACtxtChunkOverTheLimit_whenChunked_thenChunkTooLong() {
        assertThatThrownBy(() -> Chunking.ctxt("`a: b`\n\nshort\n\n" + "x".repeat(2_001)))
                .isInstanceOf(Chunking.Refused.class).hasMessageContaining("Chunk too long: chunk 2")
                .hasMessageContaining("2001 characters");
    }

    @Test
    void givenParagraphs_whenChunked_thenMergedUpTo2000InOrderAndLongOnesCutOnSentences() {
        // given: short paragraphs, then one of ~3,000 characters in sentences of ~100
        String sentence = "This sentence is about one hundred characters long, give or take a few words here and there. ";
        String longParagraph = sentence.repeat(30).strip();
        String text = "First paragraph.\nStill first.\n\nSecond paragraph.\n\n" + longParagraph + "\n\nLast one.";
        // when
        List<Chunking.Draft> chunks = Chunking.prose(text, Locale.ROOT);
        // then
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.text().length()).isLessThanOrEqualTo(2_000));
        assertThat(chunks.get(0).text()).startsWith("First paragraph. Still first.\n\nSecond paragraph.");
        assertThat(chunks.get(chunks.size() - 1).text()).endsWith("Last one.");
        assertThat(String.join(" ", chunks.stream().map(Chunking.Draft::text).toList()).replaceAll("\\s+", " "))
                .isEqualTo(text.replaceAll("\\s+", " "));
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.text()).doesNotStartWith("ence")); // cut on sentences
    }

    @Test
    void givenTextThatMakesMoreThan1000Chunks_whenChunked_thenRefused() {
        String paragraph = "y".repeat(1_500);
        assertThatThrownBy(() -> Chunking.prose((paragraph + "\n\n").repeat(1_001), Locale.ROOT))
                .isInstanceOf(Chunking.Refused.class).hasMessageContaining("more than 1000 chunks");
    }
}
