package ai.convo.query.feedback;

import static ai.convo.query.feedback.FeedbackTestData.finding;
import static ai.convo.query.feedback.FeedbackTestData.intent;
import static ai.convo.query.feedback.FeedbackTestData.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.query.feedback.FeedbackAnalysis.Finding;
import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import ai.convo.query.feedback.FeedbackAnalysis.Report;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The non-fScore findings, their order, the wire shape, determinism and Unicode handling. */
class FeedbackFindingsTest {

    /** A second, unrelated intent so that a flow is not a one-intent flow. */
    private static final IntentSentences OTHER = intent("zz", "weather today", "weather tomorrow");

    @Test
    void few_sentences_below_five_sentences_as_given() {
        // given 4 sentences, and 5 sentences of which 2 are duplicates and 1 has no token
        List<IntentSentences> flow = List.of(
                intent("four", "one", "two", "three", "four"),
                intent("five", "one more", "one more", "?!", "two more", "three more"),
                OTHER);

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(types(reports.get("four"))).contains("fewSentences");
        assertThat(types(reports.get("five"))).doesNotContain("fewSentences");
    }

    @Test
    void no_siblings_only_in_a_one_intent_flow() {
        // given
        List<IntentSentences> alone = List.of(intent("a", "book flight"));
        List<IntentSentences> pair = List.of(intent("a", "book flight"), OTHER);

        // when
        Report single = FeedbackAnalysis.analyse(alone).get("a");
        Report withSibling = FeedbackAnalysis.analyse(pair).get("a");

        // then
        assertThat(types(single)).contains("noSiblings");
        assertThat(types(withSibling)).doesNotContain("noSiblings");
    }

    /*
     * Token sets s1 = {a,b,c,d,e,f} (6), s2 = {a,b,c,g,h,i,j} (7), s3 = {k}.
     * J(s1,s2) = 3 / (6 + 7 - 3) = 3/10; J(s1,s3) = J(s2,s3) = 0 -> average = (3/10) / 3 = 0.1 -> not < 0.1: clear.
     * s2' = s2 + {l} (8): J(s1,s2') = 3 / (6 + 8 - 3) = 3/11 -> average = 1/11 = 0.0909 < 0.1: unclear.
     */
    @Test
    void unclear_intent_average_jaccard_below_a_tenth_boundary_exclusive() {
        // given
        List<IntentSentences> flow = List.of(
                intent("exact", "a b c d e f", "a b c g h i j", "k"),
                intent("below", "a b c d e f", "a b c g h i j l", "k"),
                OTHER);

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(types(reports.get("exact"))).doesNotContain("unclearIntent");
        assertThat(types(reports.get("below"))).contains("unclearIntent");
    }

    /*
     * disjoint: 3 sentences, all J = 0 -> average 0 -> unclear.
     * two: 2 disjoint sentences -> fewer than 3 -> never unclear.
     * untokenised: "alpha", "beta", "???" -> only 2 tokenised sentences -> never unclear.
     * duplicates: "x y", "x y", "z" -> J = 1, 0, 0 -> average 1/3 -> clear.
     */
    @Test
    void unclear_intent_needs_three_tokenised_sentences_and_counts_duplicates() {
        // given
        List<IntentSentences> flow = List.of(
                intent("disjoint", "book flight", "weather", "hello there"),
                intent("two", "book flight", "weather"),
                intent("untokenised", "alpha", "beta", "???"),
                intent("duplicates", "x y", "x y", "z"),
                OTHER);

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(types(reports.get("disjoint"))).contains("unclearIntent");
        assertThat(types(reports.get("two"))).doesNotContain("unclearIntent");
        assertThat(types(reports.get("untokenised"))).doesNotContain("unclearIntent");
        assertThat(types(reports.get("duplicates"))).doesNotContain("unclearIntent");
    }

    /*
     * Above 1000 tokenised sentences the average is taken over a deterministic sample of pairs.
     * disjoint: 1200 one-token sentences w0..w1199 -> every J = 0 -> unclear.
     * shared: 1200 sentences "common wN" -> every J = 1/3 -> clear.
     */
    @Test
    void unclear_intent_of_a_large_intent_uses_the_sampled_average() {
        // given
        List<String> disjoint = new ArrayList<>();
        List<String> shared = new ArrayList<>();
        for (int k = 0; k < 1200; k++) {
            disjoint.add("w" + k);
            shared.add("common v" + k);
        }
        List<IntentSentences> flow = List.of(
                new IntentSentences("disjoint", "Disjoint", disjoint),
                new IntentSentences("shared", "Shared", shared));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(types(reports.get("disjoint"))).contains("unclearIntent");
        assertThat(types(reports.get("shared"))).doesNotContain("unclearIntent");
    }

    /*
     * {book, a, cheap, flight} vs {book, a, cheap, flight, now}: J = 4/5 = 0.8 -> strong (boundary inclusive).
     * {book, a, cheap, flight} vs {book, a, cheap, flight, right, now}: J = 4/6 = 0.667 -> not strong; but the
     * vocabularies (4 and 6 tokens) share 4 = min -> ratio 1 >= 0.6 -> someOverlap.
     */
    @Test
    void strong_overlap_at_jaccard_four_fifths_else_some_overlap() {
        // given
        List<IntentSentences> flow = List.of(
                intent("a", "Book a cheap flight"),
                intent("b", "book a cheap flight now"),
                intent("c", "book a cheap flight right now"),
                OTHER);

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then a~b strong (4/5); a~c 4/6 and b~c 5/6 = 0.833 -> b~c strong; a~c only some
        assertThat(finding(reports.get("a"), "strongOverlap").intentIds()).containsExactly("b");
        assertThat(finding(reports.get("a"), "someOverlap").intentIds()).containsExactly("c");
        assertThat(finding(reports.get("b"), "strongOverlap").intentIds()).containsExactly("a", "c");
        assertThat(finding(reports.get("b"), "someOverlap")).isNull();
        assertThat(finding(reports.get("c"), "strongOverlap").intentIds()).containsExactly("b");
        assertThat(finding(reports.get("c"), "someOverlap").intentIds()).containsExactly("a");
        assertThat(finding(reports.get("zz"), "strongOverlap")).isNull();
    }

    /*
     * "Book a flight!", "flight, a BOOK" and "book book a flight" all have the token set {a, book, flight}: J = 1.
     * The shared sentence is listed with ids and names sorted by id; duplicates inside one intent are no overlap;
     * sentences without tokens never overlap.
     */
    @Test
    void strong_overlap_lists_every_intent_sorted_by_id_with_names() {
        // given
        List<IntentSentences> flow = List.of(
                new IntentSentences("m", "Middle", List.of("flight, a BOOK", "???")),
                new IntentSentences("z", "Last", List.of("book book a flight", "book a flight", "???")),
                new IntentSentences("a", "First", List.of("Book a flight!", "weather")));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        Finding ofM = finding(reports.get("m"), "strongOverlap");
        assertThat(ofM.intentIds()).containsExactly("a", "z");
        assertThat(ofM.intentNames()).containsExactly("First", "Last");
        assertThat(finding(reports.get("a"), "strongOverlap").intentIds()).containsExactly("m", "z");
        assertThat(finding(reports.get("z"), "strongOverlap").intentIds()).containsExactly("a", "m");
    }

    /*
     * V_a = {alpha, beta, gamma, delta, epsilon} (5).
     * V_b = {alpha, zeta, eta, beta, gamma, theta, iota} (7): common {alpha, beta, gamma} = 3 -> 3/min(5,7) = 0.6 -> some.
     * V_c = {alpha, zeta, eta, beta, kappa, theta, iota} (7): common {alpha, beta} = 2 -> 0.4 -> none.
     * V_d = {alpha, beta} (2): common with a = 2 -> ratio 1, but min(|V|) = 2 < 3 -> none.
     * Sentence pairs stay far below J 0.8 (e.g. "alpha beta" vs "alpha zeta eta" = 1/4).
     */
    @Test
    void some_overlap_of_vocabularies_boundary_and_minimum_size() {
        // given
        List<IntentSentences> flow = List.of(
                intent("a", "alpha beta", "gamma delta epsilon"),
                intent("b", "alpha zeta eta", "beta gamma theta iota"),
                intent("c", "alpha zeta eta", "beta kappa theta iota"),
                intent("d", "alpha", "beta"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then a~b some (0.6); b and c share the sentence "alpha zeta eta" -> strong, which hides their
        // vocabulary overlap (6/7)
        assertThat(finding(reports.get("a"), "someOverlap").intentIds()).containsExactly("b");
        assertThat(finding(reports.get("b"), "someOverlap").intentIds()).containsExactly("a");
        assertThat(finding(reports.get("b"), "strongOverlap").intentIds()).containsExactly("c");
        assertThat(finding(reports.get("c"), "someOverlap")).isNull();
        assertThat(types(reports.get("d"))).doesNotContain("someOverlap", "strongOverlap");
    }

    /*
     * t: "alpha beta gamma delta", "epsilon zeta", "eta theta"  (3 sentences, pairwise J = 0 -> unclear; 3 < 5 -> few)
     * u: "alpha beta gamma delta now": J with t1 = 4/5 -> strong t~u.
     * v: "epsilon zeta eta", "theta iota": V_v = {epsilon, zeta, eta, theta, iota} (5), V_t has 8 tokens, common
     *    {epsilon, zeta, eta, theta} = 4 -> 4/5 = 0.8 >= 0.6 -> some t~v; no sentence pair reaches J 0.8
     *    ("epsilon zeta" vs "epsilon zeta eta" = 2/3).
     * Classification: t1's tokens are in u only (t's other sentences share nothing) -> u; t2 and t3 share tokens only
     * with v -> v. t: TP 0 -> poorFScore.
     */
    @Test
    void findings_are_ordered_fscore_few_unclear_strong_some() {
        // given
        List<IntentSentences> flow = List.of(
                intent("t", "alpha beta gamma delta", "epsilon zeta", "eta theta"),
                intent("u", "alpha beta gamma delta now"),
                intent("v", "epsilon zeta eta", "theta iota"));

        // when
        Report report = FeedbackAnalysis.analyse(flow).get("t");

        // then
        assertThat(types(report))
                .containsExactly("poorFScore", "fewSentences", "unclearIntent", "strongOverlap", "someOverlap");
        assertThat(finding(report, "strongOverlap").intentIds()).containsExactly("u");
        assertThat(finding(report, "someOverlap").intentIds()).containsExactly("v");
    }

    @Test
    void no_siblings_comes_before_unclear_intent() {
        // given one intent, three disjoint sentences
        List<IntentSentences> flow = List.of(intent("solo", "book flight", "weather", "hello there"));

        // when
        Report report = FeedbackAnalysis.analyse(flow).get("solo");

        // then
        assertThat(types(report)).containsExactly("poorFScore", "fewSentences", "noSiblings", "unclearIntent");
    }

    @Test
    void to_wire_shape() {
        // given
        Report report = new Report(List.of(
                Finding.of("fairFScore"),
                Finding.of("fewSentences"),
                new Finding("strongOverlap", List.of("b", "c"), List.of("Hotels", "Weather"))), 0.667);

        // when
        Map<String, Object> wire = report.toWire();

        // then
        Map<String, Object> strong = new LinkedHashMap<>();
        strong.put("type", "strongOverlap");
        strong.put("intentIds", List.of("b", "c"));
        strong.put("intentNames", List.of("Hotels", "Weather"));
        assertThat(wire).isEqualTo(Map.of(
                "findings", List.of(Map.of("type", "fairFScore"), Map.of("type", "fewSentences"), strong),
                "info", Map.of("fScore", 0.667)));
        assertThat(wire.keySet()).containsExactly("findings", "info");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> findings = (List<Map<String, Object>>) wire.get("findings");
        assertThat(findings.get(2).keySet()).containsExactly("type", "intentIds", "intentNames");
    }

    @Test
    void to_wire_of_an_analysed_report() {
        // given
        List<IntentSentences> flow = List.of(
                new IntentSentences("a", "Cheap flights", List.of("Book a cheap flight")),
                new IntentSentences("b", "Flights now", List.of("book a cheap flight now")));

        // when
        Map<String, Object> wire = FeedbackAnalysis.analyse(flow).get("a").toWire();

        // then J("Book a cheap flight", "book a cheap flight now") = 4/5 -> strong (which hides the vocabulary
        // overlap 4/4); a's only sentence can never be a TP -> fScore 0
        assertThat(wire).isEqualTo(Map.of(
                "findings", List.of(
                        Map.of("type", "poorFScore"),
                        Map.of("type", "fewSentences"),
                        Map.of("type", "strongOverlap", "intentIds", List.of("b"), "intentNames", List.of("Flights now"))),
                "info", Map.of("fScore", 0.0)));
    }

    @Test
    void overlap_findings_and_only_they_list_intents() {
        assertThatThrownBy(() -> new Finding("strongOverlap", List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Finding("fewSentences", List.of("a"), List.of("A")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Finding("someOverlap", List.of("a"), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shuffled_input_gives_the_same_result() {
        // given a synthetic flow with overlaps, and the same flow with intents and sentences shuffled
        List<IntentSentences> flow = FeedbackScaleCheck.syntheticFlow(400, 8, 3_000, 7);
        List<IntentSentences> shuffled = new ArrayList<>();
        Random random = new Random(3);
        for (IntentSentences intent : flow) {
            List<String> sentences = new ArrayList<>(intent.sentences());
            Collections.shuffle(sentences, random);
            shuffled.add(new IntentSentences(intent.intentId(), intent.name(), sentences));
        }
        Collections.shuffle(shuffled, random);

        // when
        Map<String, Report> original = FeedbackAnalysis.analyse(flow);
        Map<String, Report> again = FeedbackAnalysis.analyse(shuffled);

        // then
        assertThat(again).isEqualTo(original);
        assertThat(new ArrayList<>(again.keySet())).isEqualTo(new ArrayList<>(original.keySet())).isSorted();
        assertThat(again.values().stream().map(Report::toWire).toList())
                .isEqualTo(original.values().stream().map(Report::toWire).toList());
        assertThat(original.values().stream().flatMap(r -> types(r).stream()))
                .contains("goodFScore", "poorFScore", "strongOverlap", "unclearIntent");
    }

    @Test
    void tokenisation_lowercases_and_splits_on_non_letters_and_digits() {
        assertThat(Tokenizer.tokens("Größe ändern, BITTE!")).containsExactly("größe", "ändern", "bitte");
        assertThat(Tokenizer.tokens("ÄPFEL über Öl")).containsExactly("äpfel", "über", "öl");
        assertThat(Tokenizer.tokens("予約したい。東京、明日")).containsExactly("予約したい", "東京", "明日");
        assertThat(Tokenizer.tokens("I don't want 2 tickets")).containsExactly("i", "don", "t", "want", "2", "tickets");
        assertThat(Tokenizer.tokens("e-mail: foo@bar.de")).containsExactly("e", "mail", "foo", "bar", "de");
        assertThat(Tokenizer.tokens("Nº ٣ Ωμέγα")).containsExactly("nº", "٣", "ωμέγα");
        assertThat(Tokenizer.tokens("  ?!… ")).isEmpty();
        assertThat(Tokenizer.tokens("")).isEmpty();
    }

    /*
     * "Größe ändern!" and "größe ÄNDERN" are both {größe, ändern}; "予約したい" and "予約したい！" are both {予約したい}
     * (Japanese characters are letters, the full-width ! is not) -> identical token sets -> strongOverlap.
     * "Grosse ändern" is {grosse, ändern}: J 1/3 with the first -> no strong overlap.
     */
    @Test
    void unicode_sentences_overlap_by_their_tokens() {
        // given
        List<IntentSentences> flow = List.of(
                intent("de1", "Größe ändern!"),
                intent("de2", "größe ÄNDERN"),
                intent("de3", "Grosse ändern"),
                intent("ja1", "予約したい"),
                intent("ja2", "予約したい！"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(finding(reports.get("de1"), "strongOverlap").intentIds()).containsExactly("de2");
        assertThat(finding(reports.get("de3"), "strongOverlap")).isNull();
        assertThat(finding(reports.get("ja1"), "strongOverlap").intentIds()).containsExactly("ja2");
    }

    @Test
    void input_validation() {
        assertThat(FeedbackAnalysis.analyse(List.of())).isEmpty();
        assertThatThrownBy(() -> FeedbackAnalysis.analyse(List.of(intent("a", "x"), intent("a", "y"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IntentSentences("a", "A", java.util.Arrays.asList("x", null)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new IntentSentences(null, "A", List.of()))
                .isInstanceOf(NullPointerException.class);
    }
}
