package ai.convo.query.feedback;

import static ai.convo.query.feedback.FeedbackTestData.intent;
import static ai.convo.query.feedback.FeedbackTestData.types;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import ai.convo.query.feedback.FeedbackAnalysis.Report;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The leave-one-out nearest-centroid fScore. All numbers in the comments are computed by hand (6 decimals):
 * ln 3 = 1.098612, ln 1.5 = 0.405465, ln 2 = 0.693147, 1/√2 = 0.707107.
 */
class FeedbackFScoreTest {

    /*
     * Flow of 3 intents, M = 3.
     *   a "Flights": a1 "book flight", a2 "flight ticket"
     *   b "Hotels":  b1 "hotel room",  b2 "book"
     *   c "Weather": c1 "weather today", c2 "weather"
     * IDF: book is in a and b -> ln(3/2) = 0.405465; flight, ticket, hotel, room, weather, today -> ln 3 = 1.098612.
     * Unit sentence vectors (tf = 1 everywhere):
     *   a1: |x| = sqrt(0.405465² + 1.098612²) = sqrt(0.164402 + 1.206949) = 1.171047
     *       x̂ = (book 0.405465/1.171047 = 0.346242, flight 1.098612/1.171047 = 0.938145)
     *   a2: (flight 0.707107, ticket 0.707107)     b1: (hotel 0.707107, room 0.707107)     b2: (book 1)
     *   c1: (weather 0.707107, today 0.707107)     c2: (weather 1)
     * Centroids (sums):
     *   c_a = (book 0.346242, flight 1.645252, ticket 0.707107), |c_a| = sqrt(0.119883 + 2.706854 + 0.5) = 1.823935
     *   c_b = (book 1, hotel 0.707107, room 0.707107), |c_b| = sqrt(2) = 1.414214
     *   c_c = (weather 1.707107, today 0.707107)
     * Leave-one-out cosines (own centroid minus the sentence):
     *   a1: own = x̂_a2 -> 0.938145 * 0.707107 = 0.663369; b: 0.346242 * 1 / 1.414214 = 0.244830; c: 0  -> a (TP a)
     *   a2: own = x̂_a1 -> 0.938145 * 0.707107 = 0.663369; b, c: 0 (no common token)       -> a (TP a)
     *   b1: own = x̂_b2 = (book) shares nothing -> 0; a: 0; c: 0                            -> unpredicted (FN b)
     *   b2: own = x̂_b1 shares nothing -> 0; a: 1 * 0.346242 / 1.823935 = 0.189832; c: 0    -> a (FP a, FN b)
     *   c1: own = x̂_c2 -> 0.707107                                                          -> c (TP c)
     *   c2: own = x̂_c1 -> 0.707107                                                          -> c (TP c)
     * Confusion: a TP 2, FP 1, FN 0 -> P = 2/3, R = 1, F1 = 2·(2/3)·1 / (5/3) = 0.8
     *            b TP 0, FN 2 -> 0;  c TP 2, FP 0, FN 0 -> 1.0
     */
    @Test
    void hand_computed_three_intent_example() {
        // given
        List<IntentSentences> flow = List.of(
                intent("a", "book flight", "flight ticket"),
                intent("b", "hotel room", "book"),
                intent("c", "weather today", "weather"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("a").fScore()).isEqualTo(0.8);
        assertThat(reports.get("b").fScore()).isEqualTo(0.0);
        assertThat(reports.get("c").fScore()).isEqualTo(1.0);
        assertThat(types(reports.get("a"))).containsExactly("goodFScore", "fewSentences");
        assertThat(types(reports.get("b"))).containsExactly("poorFScore", "fewSentences");
        assertThat(types(reports.get("c"))).containsExactly("goodFScore", "fewSentences");
    }

    /*
     *   flights: "book flight", "flight", "book"     hotels: "book hotel", "hotel"     weather: "weather", "weather today"
     * IDF as above (book in 2 of 3 intents: 0.405465; every other token 1.098612).
     *   x̂("book flight") = (book 0.346242, flight 0.938145), x̂("book hotel") = (book 0.346242, hotel 0.938145)
     * Sentence "book" of flights: own centroid without it = x̂("book flight") + x̂("flight")
     *   = (book 0.346242, flight 1.938145), norm sqrt(0.119883 + 3.756406) = 1.968830 -> cos = 0.346242/1.968830 = 0.175862
     * hotels' centroid = x̂("book hotel") + x̂("hotel") = (book 0.346242, hotel 1.938145), norm 1.968830
     *   -> cos = 0.346242/1.968830 = 0.175862: the same number (mirror images) -> a tie, won by the smaller intent id.
     * Every other sentence is unambiguous:
     *   "book flight": own (book 1, flight 1) -> (0.346242 + 0.938145)/1.414214 = 0.908199; hotels 0.346242²/1.968830 = 0.060891
     *   "flight": own (book 1.346242, flight 0.938145), norm 1.640879 -> 0.938145/1.640879 = 0.571734; hotels 0
     *   "book hotel": own (hotel 1) -> 0.938145; flights 0.346242 * 1.346242 / 2.359825 = 0.197525
     *   "hotel": own x̂("book hotel") -> 0.938145; weather sentences: 0.707107 to their own intent only.
     */
    @Test
    void a_tie_goes_to_the_smaller_intent_id_own_intent_first() {
        // given flights has the smaller id
        List<IntentSentences> flow = List.of(
                intent("a", "book flight", "flight", "book"),
                intent("b", "book hotel", "hotel"),
                intent("c", "weather", "weather today"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then "book" goes to a = flights itself: every sentence is a TP, F1 = 1 everywhere
        assertThat(reports.get("a").fScore()).isEqualTo(1.0);
        assertThat(reports.get("b").fScore()).isEqualTo(1.0);
        assertThat(reports.get("c").fScore()).isEqualTo(1.0);
    }

    /*
     * Same flow, but hotels now has the smaller id "a" and flights "b": the tie on "book" goes to hotels.
     *   flights (b): TP 2, FP 0, FN 1 -> F1 = 2·2 / (2·2 + 0 + 1) = 4/5 = 0.8 (the goodFScore boundary)
     *   hotels  (a): TP 2, FP 1, FN 0 -> F1 = 4/5 = 0.8
     */
    @Test
    void a_tie_goes_to_the_smaller_intent_id_other_intent_first() {
        // given
        List<IntentSentences> flow = List.of(
                intent("b", "book flight", "flight", "book"),
                intent("a", "book hotel", "hotel"),
                intent("c", "weather", "weather today"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("b").fScore()).isEqualTo(0.8);
        assertThat(reports.get("a").fScore()).isEqualTo(0.8);
        assertThat(reports.get("c").fScore()).isEqualTo(1.0);
        assertThat(types(reports.get("b"))).first().isEqualTo("goodFScore");
    }

    /*
     *   f: "book flight", "flight"     h: "book hotel" (its only sentence)     w: "weather", "weather today"
     * IDF: book in f and h -> 0.405465, the others 1.098612.
     * "book hotel" of h: h's centroid without it is empty, so h is no candidate (without leave-one-out it would
     *   score cos(x, x) = 1 and win). f: c_f = (book 0.346242, flight 1.938145), |c_f| = 1.968830
     *   -> 0.346242 * 0.346242 / 1.968830 = 0.060891 -> f (FP f).
     * "book flight": own (flight 1) -> 0.938145; h: (book 0.346242, hotel 0.938145) -> 0.346242² = 0.119883 -> f (TP)
     * "flight": own x̂("book flight") -> 0.938145 -> f (TP). w: 2 TP.
     *   f: TP 2, FP 1 -> 0.8;   h: TP 0 -> 0;   w: 1.0
     */
    @Test
    void leave_one_out_an_intent_with_one_sentence_cannot_classify_it_to_itself() {
        // given
        List<IntentSentences> flow = List.of(
                intent("f", "book flight", "flight"),
                intent("h", "book hotel"),
                intent("w", "weather", "weather today"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("h").fScore()).isEqualTo(0.0);
        assertThat(types(reports.get("h"))).containsExactly("poorFScore", "fewSentences");
        assertThat(reports.get("f").fScore()).isEqualTo(0.8);
        assertThat(reports.get("w").fScore()).isEqualTo(1.0);
    }

    /*
     *   f: "book flight", "flight"     g: "hello"     w: "weather", "weather today"
     * "hello" is only in g's only sentence: g's leave-one-out centroid is empty and no other intent has "hello"
     * -> every score is 0 -> unpredicted: FN for g, nobody's FP. g: TP 0 -> 0; f and w: 2 TP each -> 1.0.
     */
    @Test
    void a_sentence_sharing_no_weighted_token_is_unpredicted() {
        // given
        List<IntentSentences> flow = List.of(
                intent("f", "book flight", "flight"),
                intent("g", "hello"),
                intent("w", "weather", "weather today"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("g").fScore()).isEqualTo(0.0);
        assertThat(reports.get("f").fScore()).isEqualTo(1.0);
        assertThat(reports.get("w").fScore()).isEqualTo(1.0);
    }

    /*
     *   a: "book flight", "flight"     b: "book hotel", "hotel"     c: "book", "book now"
     * "book" is in all 3 intents -> idf ln(3/3) = 0: it weighs nothing.
     * c1 "book": |x| = 0 -> unpredicted. c2 "book now": x = (now 1.098612); c's centroid without it = x̂("book") = 0
     *   -> c is no candidate; a, b have no "now" -> unpredicted. c: TP 0 -> 0.
     * a1 "book flight" = (flight 1) after weighting: own x̂("flight") -> 1; b: 0 -> TP; likewise all of a, b -> 1.0.
     */
    @Test
    void a_token_in_every_intent_weighs_nothing() {
        // given
        List<IntentSentences> flow = List.of(
                intent("a", "book flight", "flight"),
                intent("b", "book hotel", "hotel"),
                intent("c", "book", "book now"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("a").fScore()).isEqualTo(1.0);
        assertThat(reports.get("b").fScore()).isEqualTo(1.0);
        assertThat(reports.get("c").fScore()).isEqualTo(0.0);
    }

    /*
     *   x: "alpha beta", "alpha gamma", "delta", "epsilon"     y: "zeta eta", "zeta theta"
     * M = 2, every token is in one intent -> idf ln 2 = 0.693147 for all.
     * "alpha beta": x's centroid without it contains x̂("alpha gamma") = (alpha 0.707107, gamma 0.707107)
     *   -> score > 0 (0.707107 * 0.707107 / |c'| ), y: 0 -> TP; "alpha gamma" likewise -> TP.
     * "delta", "epsilon": no other sentence has their token -> unpredicted (FN).
     * x: TP 2, FP 0, FN 2 -> P = 1, R = 0.5 -> F1 = 2·0.5/1.5 = 0.666… -> 0.667 (half-up) -> fairFScore.
     * y: TP 2 -> 1.0.
     */
    @Test
    void fscore_is_rounded_half_up_to_three_decimals() {
        // given
        List<IntentSentences> flow = List.of(
                intent("x", "alpha beta", "alpha gamma", "delta", "epsilon"),
                intent("y", "zeta eta", "zeta theta"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("x").fScore()).isEqualTo(0.667);
        assertThat(types(reports.get("x"))).first().isEqualTo("fairFScore");
        assertThat(reports.get("y").fScore()).isEqualTo(1.0);
    }

    /*
     * As above with 5 unique one-token sentences d1..d5: TP 2, FN 5 -> F1 = 4/(4+5) = 0.4444… -> 0.444 -> poorFScore.
     * With 4 of them: TP 2, FN 4 -> F1 = 4/8 = 0.5 -> fairFScore (0.5 is fair).
     */
    @Test
    void fscore_rounds_down_and_the_fair_boundary_is_inclusive() {
        // given
        List<IntentSentences> five = List.of(
                intent("x", "alpha beta", "alpha gamma", "d1", "d2", "d3", "d4", "d5"),
                intent("y", "zeta eta", "zeta theta"));
        List<IntentSentences> four = List.of(
                intent("x", "alpha beta", "alpha gamma", "d1", "d2", "d3", "d4"),
                intent("y", "zeta eta", "zeta theta"));

        // when
        Report fiveUnique = FeedbackAnalysis.analyse(five).get("x");
        Report fourUnique = FeedbackAnalysis.analyse(four).get("x");

        // then
        assertThat(fiveUnique.fScore()).isEqualTo(0.444);
        assertThat(types(fiveUnique)).first().isEqualTo("poorFScore");
        assertThat(fourUnique.fScore()).isEqualTo(0.5);
        assertThat(types(fourUnique)).first().isEqualTo("fairFScore");
    }

    /*
     * x: 1249 sentences "alpha wN" (each TP: the other ones share alpha) and 2502 sentences "dN" (each unique: FN).
     * F1 = 2·1249 / (2·1249 + 0 + 2502) = 2498/5000 = 0.4996 -> rounded 0.500 -> fairFScore, although the raw F1 is
     * below 0.5: the thresholds apply to the rounded fScore that the report shows.
     */
    @Test
    void thresholds_apply_to_the_rounded_fscore() {
        // given
        List<String> sentences = new ArrayList<>();
        for (int k = 0; k < 1249; k++) {
            sentences.add("alpha w" + k);
        }
        for (int k = 0; k < 2502; k++) {
            sentences.add("d" + k);
        }
        List<IntentSentences> flow = List.of(
                new IntentSentences("x", "X", sentences),
                intent("y", "zeta eta", "zeta theta"));

        // when
        Report report = FeedbackAnalysis.analyse(flow).get("x");

        // then
        assertThat(report.fScore()).isEqualTo(0.5);
        assertThat(types(report)).first().isEqualTo("fairFScore");
    }

    /*
     * Confusion -> F1 = 2TP/(2TP+FP+FN), half-up at 3 decimals: TP 1, FP 1, FN 0 -> 2/3 = 0.6667 -> 0.667;
     * TP 1, FP 0, FN 2 -> 2/4 = 0.5; TP 3, FP 1, FN 3 -> 6/10 = 0.6; TP 0 -> 0 (P or R undefined or 0);
     * TP 1, FP 1999, FN 0 -> 2/2001 = 0.00099950 -> 0.001; TP 1, FP 2000 -> 2/2002 = 0.000999 -> 0.001;
     * TP 1, FP 4001 -> 2/4003 = 0.0004996 -> 0.0.
     */
    @Test
    void confusion_to_fscore() {
        // given
        CentroidClassifier.Confusion confusion = new CentroidClassifier.Confusion(
                new int[] {1, 1, 3, 0, 1, 1, 1},
                new int[] {1, 0, 1, 5, 1999, 2000, 4001},
                new int[] {1, 3, 6, 4, 1, 1, 1});

        // when / then
        assertThat(confusion.fScore(0)).isEqualTo(0.667);
        assertThat(confusion.fScore(1)).isEqualTo(0.5);
        assertThat(confusion.fScore(2)).isEqualTo(0.6);
        assertThat(confusion.fScore(3)).isEqualTo(0.0);
        assertThat(confusion.fScore(4)).isEqualTo(0.001);
        assertThat(confusion.fScore(5)).isEqualTo(0.001);
        assertThat(confusion.fScore(6)).isEqualTo(0.0);
    }

    /*
     *   p: "book flight", "flight"     q: "???", "", "!!!", "...", " - "     r: no sentence     w: "weather", "weather today"
     * q's sentences have no token: the classifier ignores them, so M = 2 (p, w), every token idf ln 2, and p, w get
     * 2 TP each -> 1.0. q has no classified sentence -> fScore 0, but it has 5 sentences as given: poorFScore and
     * no fewSentences. r has no sentence: fScore 0, no fScore finding, fewSentences.
     */
    @Test
    void sentences_without_tokens_and_intents_without_sentences() {
        // given
        List<IntentSentences> flow = List.of(
                intent("p", "book flight", "flight"),
                intent("q", "???", "", "!!!", "...", " - "),
                intent("r"),
                intent("w", "weather", "weather today"));

        // when
        Map<String, Report> reports = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(reports.get("p").fScore()).isEqualTo(1.0);
        assertThat(reports.get("w").fScore()).isEqualTo(1.0);
        assertThat(reports.get("q").fScore()).isEqualTo(0.0);
        assertThat(types(reports.get("q"))).containsExactly("poorFScore");
        assertThat(reports.get("r").fScore()).isEqualTo(0.0);
        assertThat(types(reports.get("r"))).containsExactly("fewSentences");
    }

    /*
     * A single intent: M = 1, every token has idf ln(1/1) = 0 -> nothing is predicted -> fScore 0.
     */
    @Test
    void a_flow_with_one_intent_has_fscore_zero() {
        // given
        List<IntentSentences> flow = List.of(intent("only", "book flight", "book a flight", "flight please"));

        // when
        Report report = FeedbackAnalysis.analyse(flow).get("only");

        // then
        assertThat(report.fScore()).isEqualTo(0.0);
        assertThat(types(report)).containsExactly("poorFScore", "fewSentences", "noSiblings");
    }
}
