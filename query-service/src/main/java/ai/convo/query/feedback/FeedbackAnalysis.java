package ai.convo.query.feedback;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The feedback report of every intent of one flow, for one locale. Pure, deterministic function of the input:
 * intents are processed in ascending id order and each intent's sentences in ascending {@link String#compareTo}
 * order, so the same intents and sentences give the same reports, to the last bit, whatever the input order
 * (the specification with a worked example is {@code FEEDBACK.md} next to this class).
 *
 * <h2>Tokenisation</h2>
 * Lower-case with {@link java.util.Locale#ROOT}, split on every code point that is not a Unicode letter or digit,
 * drop empty tokens ({@link Tokenizer}). A sentence's <em>token set</em> is its distinct tokens. A sentence with no
 * token is <em>untokenised</em>: it counts as a sentence for {@code fewSentences} and for "has at least one
 * sentence", and is ignored by every other measure.
 *
 * <h2>fScore: exact leave-one-out nearest-centroid classification</h2>
 * <ul>
 *   <li>M = number of intents with at least one tokenised sentence; m<sub>t</sub> = number of them whose sentences
 *       contain token t; idf(t) = ln(M / m<sub>t</sub>) (0 for a token in every intent). The IDF is computed once
 *       on the whole flow (it is not re-computed without the held-out sentence).</li>
 *   <li>Sentence vector x<sub>s</sub>[t] = tf(t, s) · idf(t) (tf = occurrences of t in s); x̂<sub>s</sub> =
 *       x<sub>s</sub> / |x<sub>s</sub>| (the zero vector when |x<sub>s</sub>| = 0).</li>
 *   <li>Centroid c<sub>I</sub> = Σ<sub>s∈I</sub> x̂<sub>s</sub> (a sum; cosine ignores the scale).</li>
 *   <li>Every tokenised sentence s of intent I is classified against all centroids, its own intent's being
 *       c<sub>I</sub> − x̂<sub>s</sub> (exact leave-one-out). The score of intent J is
 *       cos(x<sub>s</sub>, c<sub>J</sub>); only intents sharing a weighted token with s can score above 0. The
 *       prediction is the intent with the highest score, if that score is &gt; 0; scores within a relative
 *       {@value CentroidClassifier#TIE_TOLERANCE} of the best are a tie, won by the smallest intent id
 *       ({@link String#compareTo}). With no score &gt; 0 the sentence is <em>unpredicted</em> (a false negative of
 *       its intent, nobody's false positive). An intent without sentences, or whose only weighted sentence is
 *       the held-out one, is never predicted.</li>
 *   <li>Per intent: TP = its sentences predicted as itself, FP = other intents' sentences predicted as it,
 *       FN = its tokenised sentences − TP. fScore = F1 = 2PR/(P+R) = 2TP/(2TP+FP+FN), 0 when TP = 0 (which covers
 *       P or R undefined), rounded half-up to 3 decimals. An intent without tokenised sentences has fScore 0.</li>
 *   <li>Speed, without approximation: scores are accumulated through an inverted index (token → postings of
 *       (intent, c<sub>I</sub>[t]/|c<sub>I</sub>|)); tokens with idf 0 have no postings. Tokens present in many
 *       intents (≥ 64 and ≥ M/16) are additionally kept as dense columns; their contribution to any intent is
 *       bounded by Σ x<sub>s</sub>[t]·max<sub>J</sub> c<sub>J</sub>[t]/|c<sub>J</sub>|, and when the best intent reached
 *       through the other tokens beats that bound, the remaining intents are not scored (they cannot win or tie).
 *       No token is ignored: the result equals scoring every intent ({@link CentroidClassifier#classify}).</li>
 * </ul>
 *
 * <h2>Findings, in report order</h2>
 * <ol>
 *   <li>{@code poorFScore} (fScore &lt; 0.5), {@code fairFScore} (0.5 ≤ fScore &lt; 0.8) or {@code goodFScore}
 *       (fScore ≥ 0.8), compared on the rounded fScore; exactly one for every intent with at least one
 *       sentence, none for an intent without sentences.</li>
 *   <li>{@code fewSentences}: fewer than {@value #FEW_SENTENCES_THRESHOLD} sentences as given (untokenised and duplicates
 *       included).</li>
 *   <li>{@code noSiblings}: the flow has no other intent.</li>
 *   <li>{@code unclearIntent}: at least 3 tokenised sentences and the average Jaccard similarity
 *       |a∩b| / |a∪b| of the token sets over all unordered pairs of its tokenised sentences is &lt; 0.1 (exact
 *       rational comparison). Exact for up to {@value Coherence#EXACT_LIMIT} tokenised sentences; above, the
 *       average of a deterministic sample of {@value Coherence#SAMPLE_PAIRS} pairs ({@link Coherence}).</li>
 *   <li>{@code strongOverlap}: the other intents B having a sentence whose token set has Jaccard similarity ≥ 0.8
 *       with the token set of one of this intent's sentences (identical token sets included). Found by an exact
 *       prefix-filtering similarity join ({@link OverlapFinder#strongPartners}).</li>
 *   <li>{@code someOverlap}: the other intents B, not already in strongOverlap, whose vocabulary (token set of all
 *       tokenised sentences) overlaps this one's: min(|V<sub>A</sub>|, |V<sub>B</sub>|) ≥ 3 and
 *       |V<sub>A</sub> ∩ V<sub>B</sub>| / min(|V<sub>A</sub>|, |V<sub>B</sub>|) ≥ 0.6. Exact prefix-filtering join
 *       over an inverted index of vocabularies ({@link OverlapFinder#vocabularyPartners}).</li>
 * </ol>
 * The overlap findings list such intents, ids and names sorted by id, at most {@value OverlapFinder#PARTNERS_MAX}
 * (with each probe's work capped, see {@link OverlapFinder}); they appear only when non-empty.
 */
public final class FeedbackAnalysis {

    public static final String POOR_F_SCORE = "poorFScore";
    public static final String FAIR_F_SCORE = "fairFScore";
    public static final String GOOD_F_SCORE = "goodFScore";
    public static final String FEW_SENTENCES = "fewSentences";
    public static final String NO_SIBLINGS = "noSiblings";
    public static final String UNCLEAR_INTENT = "unclearIntent";
    public static final String STRONG_OVERLAP = "strongOverlap";
    public static final String SOME_OVERLAP = "someOverlap";

    static final int FEW_SENTENCES_THRESHOLD = 5;

    private FeedbackAnalysis() {
    }

    /** One intent of the flow and its example sentences in the analysed locale. */
    public record IntentSentences(String intentId, String name, List<String> sentences) {
        public IntentSentences {
            Objects.requireNonNull(intentId, "intentId");
            Objects.requireNonNull(name, "name");
            sentences = List.copyOf(Objects.requireNonNull(sentences, "sentences"));
        }
    }

    /** One finding. {@code intentIds}/{@code intentNames} are non-empty (same length) exactly for overlap findings. */
    public record Finding(String type, List<String> intentIds, List<String> intentNames) {
        public Finding {
            Objects.requireNonNull(type, "type");
            intentIds = List.copyOf(intentIds);
            intentNames = List.copyOf(intentNames);
            boolean overlap = isOverlap(type);
            if (overlap != !intentIds.isEmpty() || intentIds.size() != intentNames.size()) {
                throw new IllegalArgumentException("overlap findings, and only they, list intents: " + type);
            }
        }

        public static Finding of(String type) {
            return new Finding(type, List.of(), List.of());
        }

        static boolean isOverlap(String type) {
            return STRONG_OVERLAP.equals(type) || SOME_OVERLAP.equals(type);
        }

        Map<String, Object> toWire() {
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("type", type);
            if (isOverlap(type)) {
                wire.put("intentIds", intentIds);
                wire.put("intentNames", intentNames);
            }
            return Collections.unmodifiableMap(wire);
        }
    }

    /** The report of one intent. */
    public record Report(List<Finding> findings, double fScore) {
        public Report {
            findings = List.copyOf(findings);
        }

        /** {@code {"findings":[{"type":..}, {"type":..,"intentIds":[..],"intentNames":[..]}], "info":{"fScore":..}}} */
        public Map<String, Object> toWire() {
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("findings", findings.stream().map(Finding::toWire).toList());
            wire.put("info", Map.of("fScore", fScore));
            return Collections.unmodifiableMap(wire);
        }
    }

    /**
     * The reports of all intents of one flow for one locale.
     *
     * @param intents every intent of the flow (ids unique), with its sentences in the locale (possibly none)
     * @return the report of every input intent, keyed by intent id, iterating in ascending id order
     */
    public static Map<String, Report> analyse(List<IntentSentences> intents) {
        return analyse(intents, CentroidClassifier.Tuning.DEFAULT);
    }

    /** As {@link #analyse(List)} with the classifier's speed knob (which does not change results). */
    static Map<String, Report> analyse(List<IntentSentences> intents, CentroidClassifier.Tuning tuning) {
        List<IntentSentences> sorted = new ArrayList<>(intents);
        sorted.sort(Comparator.comparing(IntentSentences::intentId));
        Set<String> seen = new HashSet<>();
        for (IntentSentences intent : sorted) {
            if (!seen.add(intent.intentId())) {
                throw new IllegalArgumentException("duplicate intent id " + intent.intentId());
            }
        }
        Corpus corpus = Corpus.of(sorted);
        CentroidClassifier.Confusion confusion = CentroidClassifier.classify(corpus, tuning);
        int[][] strong = OverlapFinder.strongPartners(corpus);
        int[][] vocabulary = OverlapFinder.vocabularyPartners(corpus);

        int n = corpus.intentCount;
        Map<String, Report> reports = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            List<Finding> findings = new ArrayList<>();
            double fScore = confusion.fScore(i);
            if (corpus.givenSentenceCount[i] > 0) {
                findings.add(Finding.of(fScore < 0.5 ? POOR_F_SCORE : fScore < 0.8 ? FAIR_F_SCORE : GOOD_F_SCORE));
            }
            if (corpus.givenSentenceCount[i] < FEW_SENTENCES_THRESHOLD) {
                findings.add(Finding.of(FEW_SENTENCES));
            }
            if (n == 1) {
                findings.add(Finding.of(NO_SIBLINGS));
            }
            if (Coherence.unclear(corpus, i)) {
                findings.add(Finding.of(UNCLEAR_INTENT));
            }
            if (strong[i].length > 0) {
                findings.add(overlap(STRONG_OVERLAP, strong[i], corpus));
            }
            int[] some = without(vocabulary[i], strong[i]);
            if (some.length > 0) {
                findings.add(overlap(SOME_OVERLAP, some, corpus));
            }
            reports.put(corpus.ids[i], new Report(findings, fScore));
        }
        return Collections.unmodifiableMap(reports);
    }

    private static Finding overlap(String type, int[] partners, Corpus corpus) {
        List<String> ids = new ArrayList<>(partners.length);
        List<String> names = new ArrayList<>(partners.length);
        for (int j : partners) { // ascending index = ascending id
            ids.add(corpus.ids[j]);
            names.add(corpus.names[j]);
        }
        return new Finding(type, ids, names);
    }

    /** Ascending a minus ascending b. */
    private static int[] without(int[] a, int[] b) {
        int[] result = new int[a.length];
        int size = 0;
        int j = 0;
        for (int x : a) {
            while (j < b.length && b[j] < x) {
                j++;
            }
            if (j >= b.length || b[j] != x) {
                result[size++] = x;
            }
        }
        return Arrays.copyOf(result, size);
    }
}
