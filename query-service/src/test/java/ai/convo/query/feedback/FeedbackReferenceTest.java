package ai.convo.query.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.query.feedback.FeedbackAnalysis.Finding;
import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import ai.convo.query.feedback.FeedbackAnalysis.Report;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The indexed, prefix-filtered and bounded implementation against a brute-force reference that follows the
 * documented definitions literally (all sentence pairs, all intent pairs, every centroid re-summed without the
 * held-out sentence, every intent scored), on many random flows small enough for brute force.
 */
class FeedbackReferenceTest {

    @Test
    void random_flows_match_the_brute_force_reference() {
        // given
        Random random = new Random(11);
        for (int round = 0; round < 300; round++) {
            List<IntentSentences> flow = randomFlow(random);

            // when
            Map<String, Report> expected = reference(flow);
            Map<String, Report> indexed = FeedbackAnalysis.analyse(flow);
            Map<String, Report> bounded = FeedbackAnalysis.analyse(flow, CentroidClassifier.Tuning.ALL_FREQUENT);

            // then
            assertThat(indexed).as("round %d: %s", round, flow).isEqualTo(expected);
            assertThat(bounded).as("round %d: %s", round, flow).isEqualTo(expected);
        }
    }

    @Test
    void a_synthetic_flow_matches_the_reference_with_mixed_dense_and_sparse_tokens() {
        // given 300 intents; tokens in >= 8 intents and >= 5% of them become dense columns
        List<IntentSentences> flow = FeedbackScaleCheck.syntheticFlow(300, 8, 1_500, 5);

        // when
        Map<String, Report> expected = reference(flow);
        Map<String, Report> mixed = FeedbackAnalysis.analyse(flow, new CentroidClassifier.Tuning(8, 0.05));
        Map<String, Report> indexed = FeedbackAnalysis.analyse(flow);

        // then
        assertThat(mixed).isEqualTo(expected);
        assertThat(indexed).isEqualTo(expected);
    }

    /** 2-30 intents with 0-8 sentences of 1-5 words from a small skewed vocabulary, some copies and empty ones. */
    private static List<IntentSentences> randomFlow(Random random) {
        int intents = 2 + random.nextInt(29);
        int vocabulary = 4 + random.nextInt(40);
        List<IntentSentences> flow = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int i = 0; i < intents; i++) {
            int count = random.nextInt(9);
            List<String> sentences = new ArrayList<>();
            for (int s = 0; s < count; s++) {
                double dice = random.nextDouble();
                if (dice < 0.1 && !all.isEmpty()) {
                    sentences.add(all.get(random.nextInt(all.size())));
                } else if (dice < 0.13) {
                    sentences.add("?!");
                } else {
                    int length = 1 + random.nextInt(5);
                    StringBuilder b = new StringBuilder();
                    for (int k = 0; k < length; k++) {
                        int word = (int) Math.floor(vocabulary * Math.pow(random.nextDouble(), 2));
                        b.append(k == 0 ? "" : " ").append("w").append(word);
                    }
                    sentences.add(b.toString());
                }
            }
            all.addAll(sentences);
            flow.add(new IntentSentences("i" + random.nextInt(1000) + "-" + i, "Intent " + i, sentences));
        }
        return flow;
    }

    // ---- the reference ------------------------------------------------------------------------------------------

    static Map<String, Report> reference(List<IntentSentences> input) {
        List<IntentSentences> intents = new ArrayList<>(input);
        intents.sort(Comparator.comparing(IntentSentences::intentId));
        int n = intents.size();
        List<List<List<String>>> sentences = new ArrayList<>(); // tokenised sentences per intent, canonical order
        for (IntentSentences intent : intents) {
            List<List<String>> tokenised = new ArrayList<>();
            intent.sentences().stream().sorted().map(Tokenizer::tokens).filter(t -> !t.isEmpty()).forEach(tokenised::add);
            sentences.add(tokenised);
        }

        // Classification.
        int active = 0;
        Map<String, Integer> intentFrequency = new HashMap<>();
        for (List<List<String>> own : sentences) {
            if (!own.isEmpty()) {
                active++;
            }
            Set<String> vocabulary = new HashSet<>();
            own.forEach(vocabulary::addAll);
            vocabulary.forEach(t -> intentFrequency.merge(t, 1, Integer::sum));
        }
        Map<String, Double> idf = new HashMap<>();
        for (Map.Entry<String, Integer> e : intentFrequency.entrySet()) {
            idf.put(e.getKey(), Math.log((double) active / e.getValue()));
        }
        List<List<Map<String, Double>>> units = new ArrayList<>();
        List<Map<String, Double>> centroids = new ArrayList<>();
        for (List<List<String>> own : sentences) {
            List<Map<String, Double>> unitVectors = new ArrayList<>();
            for (List<String> sentence : own) {
                Map<String, Double> y = vector(sentence, idf);
                double length = norm(y);
                Map<String, Double> unit = new TreeMap<>();
                if (length > 0) {
                    y.forEach((t, w) -> unit.put(t, w / length));
                }
                unitVectors.add(unit);
            }
            units.add(unitVectors);
            centroids.add(sum(unitVectors, -1));
        }
        double[] centroidNorms = centroids.stream().mapToDouble(FeedbackReferenceTest::norm).toArray();
        int[] tp = new int[n];
        int[] fp = new int[n];
        int[] classified = new int[n];
        for (int i = 0; i < n; i++) {
            for (int s = 0; s < sentences.get(i).size(); s++) {
                classified[i]++;
                Map<String, Double> x = vector(sentences.get(i).get(s), idf);
                if (norm(x) == 0) {
                    continue;
                }
                double[] score = new double[n];
                double best = 0;
                for (int j = 0; j < n; j++) {
                    // the own centroid is re-summed without the held-out sentence (no subtraction)
                    Map<String, Double> centroid = j == i ? sum(units.get(i), s) : centroids.get(j);
                    double length = j == i ? norm(centroid) : centroidNorms[j];
                    if (length == 0) {
                        continue;
                    }
                    double dot = 0;
                    for (Map.Entry<String, Double> e : x.entrySet()) {
                        dot += e.getValue() * centroid.getOrDefault(e.getKey(), 0.0);
                    }
                    score[j] = dot / (norm(x) * length);
                    best = Math.max(best, score[j]);
                }
                if (best > 0) {
                    int predicted = 0;
                    while (score[predicted] < best * (1 - CentroidClassifier.TIE_TOLERANCE)) {
                        predicted++;
                    }
                    if (predicted == i) {
                        tp[i]++;
                    } else {
                        fp[predicted]++;
                    }
                }
            }
        }
        CentroidClassifier.Confusion confusion = new CentroidClassifier.Confusion(tp, fp, classified);

        // Overlaps, all pairs.
        List<Set<String>> vocabularies = new ArrayList<>();
        for (List<List<String>> own : sentences) {
            Set<String> vocabulary = new HashSet<>();
            own.forEach(vocabulary::addAll);
            vocabularies.add(vocabulary);
        }
        List<List<Set<String>>> sets = sentences.stream()
                .map(own -> own.stream().map(t -> (Set<String>) new HashSet<>(t)).toList())
                .toList();
        boolean[][] strong = new boolean[n][n];
        boolean[][] some = new boolean[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                for (Set<String> sa : sets.get(a)) {
                    for (Set<String> sb : sets.get(b)) {
                        int common = 0;
                        for (String t : sa) {
                            if (sb.contains(t)) {
                                common++;
                            }
                        }
                        int union = sa.size() + sb.size() - common;
                        if (5 * common >= 4 * union) {
                            strong[a][b] = true;
                            strong[b][a] = true;
                        }
                    }
                }
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                Set<String> common = new HashSet<>(vocabularies.get(a));
                common.retainAll(vocabularies.get(b));
                int min = Math.min(vocabularies.get(a).size(), vocabularies.get(b).size());
                some[a][b] = a != b && min >= 3 && 5 * common.size() >= 3 * min && !strong[a][b];
            }
        }

        Map<String, Report> reports = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            List<Finding> findings = new ArrayList<>();
            double f = confusion.fScore(i);
            if (!intents.get(i).sentences().isEmpty()) {
                findings.add(Finding.of(f < 0.5 ? "poorFScore" : f < 0.8 ? "fairFScore" : "goodFScore"));
            }
            if (intents.get(i).sentences().size() < 5) {
                findings.add(Finding.of("fewSentences"));
            }
            if (n == 1) {
                findings.add(Finding.of("noSiblings"));
            }
            if (unclear(sentences.get(i))) {
                findings.add(Finding.of("unclearIntent"));
            }
            for (String type : List.of("strongOverlap", "someOverlap")) {
                boolean[] partner = type.equals("strongOverlap") ? strong[i] : some[i];
                List<String> ids = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    if (partner[j]) {
                        ids.add(intents.get(j).intentId());
                        names.add(intents.get(j).name());
                    }
                }
                if (!ids.isEmpty()) {
                    findings.add(new Finding(type, ids, names));
                }
            }
            reports.put(intents.get(i).intentId(), new Report(findings, f));
        }
        return reports;
    }

    private static Map<String, Double> vector(List<String> tokens, Map<String, Double> idf) {
        Map<String, Double> x = new TreeMap<>();
        for (String t : tokens) {
            x.merge(t, idf.get(t), Double::sum);
        }
        return x;
    }

    private static Map<String, Double> sum(List<Map<String, Double>> vectors, int skip) {
        Map<String, Double> total = new HashMap<>();
        for (int r = 0; r < vectors.size(); r++) {
            if (r != skip) {
                vectors.get(r).forEach((t, w) -> total.merge(t, w, Double::sum));
            }
        }
        return total;
    }

    private static double norm(Map<String, Double> x) {
        double sum = 0;
        for (double w : x.values()) {
            sum += w * w;
        }
        return Math.sqrt(sum);
    }

    /** Average pairwise Jaccard < 1/10, in exact fractions (sentences are few here). */
    private static boolean unclear(List<List<String>> tokenised) {
        int n = tokenised.size();
        if (n < 3) {
            return false;
        }
        BigInteger numerator = BigInteger.ZERO;
        BigInteger denominator = BigInteger.ONE;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                Set<String> union = new HashSet<>(tokenised.get(a));
                union.addAll(tokenised.get(b));
                Set<String> common = new HashSet<>(tokenised.get(a));
                common.retainAll(new HashSet<>(tokenised.get(b)));
                // numerator/denominator += common/union
                BigInteger u = BigInteger.valueOf(union.size());
                numerator = numerator.multiply(u).add(BigInteger.valueOf(common.size()).multiply(denominator));
                denominator = denominator.multiply(u);
            }
        }
        long pairs = (long) n * (n - 1) / 2;
        return numerator.multiply(BigInteger.TEN).compareTo(denominator.multiply(BigInteger.valueOf(pairs))) < 0;
    }
}
