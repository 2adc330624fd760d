package ai.convo.query.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.query.feedback.FeedbackAnalysis.Finding;
import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import ai.convo.query.feedback.FeedbackAnalysis.Report;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The overlap analysis of the largest flows one import makes (10,000 intents, its maximum) is bounded in time and
 * memory: generated intents that all resemble each other list at most {@link OverlapFinder#PARTNERS_MAX} partners each
 * instead of 10,000 (n² pairs ran the feedback refresher out of memory), and still list overlaps where they exist.
 */
class FeedbackOverlapBoundsTest {

    private static final int INTENTS = 10_000;

    @Test
    void tenThousandGeneratedIntentsThatAllShareTheirWordsListAtMostAHundredPartnersEach() {
        // given the flow of the import: 10,000 intents × 5 sentences "intent <i> sentence <s>", every intent's
        // vocabulary overlapping every other's (someOverlap for all 50 million pairs)
        List<IntentSentences> flow = new ArrayList<>();
        for (int i = 0; i < INTENTS; i++) {
            List<String> sentences = new ArrayList<>();
            for (int s = 1; s <= 5; s++) {
                sentences.add("intent " + i + " sentence " + s);
            }
            flow.add(new IntentSentences(String.format("intent-%05d", i), "Intent " + i, sentences));
        }

        // when analysed
        Map<String, Report> reports = timed("generated import, 10,000 × 5", flow);

        // then every intent lists partners, at most 100 per finding
        assertThat(reports).hasSize(INTENTS);
        for (Report report : reports.values()) {
            List<Finding> overlaps = report.findings().stream().filter(f -> !f.intentIds().isEmpty()).toList();
            assertThat(overlaps).isNotEmpty();
            assertThat(overlaps).allSatisfy(f -> assertThat(f.intentIds()).hasSizeLessThanOrEqualTo(100));
        }
    }

    @Test
    void tenThousandIntentsSharingOneSentenceListAtMostAHundredStrongOverlapsEach() {
        // given 10,000 intents × 20 sentences, each intent with one sentence all share and 19 from 300 common words
        List<IntentSentences> flow = new ArrayList<>();
        for (int i = 0; i < INTENTS; i++) {
            List<String> sentences = new ArrayList<>();
            sentences.add("book a table");
            for (int s = 1; s < 20; s++) {
                sentences.add("w" + ((i * 7 + s * 13) % 300) + " w" + ((i * 11 + s * 17) % 300));
            }
            flow.add(new IntentSentences(String.format("intent-%05d", i), "Intent " + i, sentences));
        }

        // when analysed
        Map<String, Report> reports = timed("shared sentence, 10,000 × 20", flow);

        // then every intent has a strong overlap of at most 100 intents
        for (Report report : reports.values()) {
            assertThat(report.findings()).filteredOn(f -> f.type().equals(FeedbackAnalysis.STRONG_OVERLAP))
                    .singleElement().satisfies(f -> assertThat(f.intentIds()).hasSizeBetween(1, 100));
        }
    }

    @Test
    void belowTheCapTheListsStayExact() {
        // given 150 intents of which 0..99 share a sentence: 99 partners each, under the cap
        List<IntentSentences> flow = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            flow.add(new IntentSentences(String.format("intent-%05d", i), "Intent " + i,
                    List.of(i < 100 ? "book a table" : "topic" + i + " solo" + i, "own" + i + " x" + i + " y" + i)));
        }

        // when analysed
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then each of the 100 lists all 99 others
        assertThat(reports.get("intent-00042").findings())
                .filteredOn(f -> f.type().equals(FeedbackAnalysis.STRONG_OVERLAP))
                .singleElement().satisfies(f -> assertThat(f.intentIds()).hasSize(99)
                        .doesNotContain("intent-00042").contains("intent-00000", "intent-00099"));
        assertThat(reports.get("intent-00120").findings()).noneMatch(f -> !f.intentIds().isEmpty());
    }

    private static Map<String, Report> timed(String name, List<IntentSentences> flow) {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        long usedBefore = runtime.totalMemory() - runtime.freeMemory();
        long start = System.nanoTime();
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.gc();
        long retained = runtime.totalMemory() - runtime.freeMemory() - usedBefore;
        long listed = reports.values().stream().flatMap(r -> r.findings().stream())
                .mapToLong(f -> f.intentIds().size()).sum();
        System.out.printf("feedback analysis, %s: %.2f s, %d partner entries listed, reports retain %d MB%n",
                name, seconds, listed, retained >> 20);
        // the bound is the partner lists' size (asserted by the callers): without the caps this ran out of memory;
        // the time is printed, not asserted, as a shared machine's load decides it
        return reports;
    }
}
