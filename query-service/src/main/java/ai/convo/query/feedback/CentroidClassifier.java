package ai.convo.query.feedback;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * Exact leave-one-out nearest-centroid classification with TF-IDF weights and cosine similarity; see
 * {@link FeedbackAnalysis} for the definition. Scores are accumulated through an inverted index
 * (token &rarr; postings of (intent, centroid weight)) so a sentence only visits intents that share a weighted token
 * with it.
 */
final class CentroidClassifier {

    /** Scores within this relative distance of the best score are a tie (absorbs floating-point noise). */
    static final double TIE_TOLERANCE = 1e-12;

    private CentroidClassifier() {
    }

    /** Per intent: true positives, false positives and classified (tokenised) sentences. */
    record Confusion(int[] truePositives, int[] falsePositives, int[] classified) {

        /** F1 = 2TP / (2TP + FP + FN), rounded half-up to 3 decimals; 0 when there is no true positive. */
        double fScore(int intent) {
            int tp = truePositives[intent];
            if (tp == 0) {
                return 0.0;
            }
            long fn = (long) classified[intent] - tp;
            long denominator = 2L * tp + falsePositives[intent] + fn;
            return BigDecimal.valueOf(2L * tp)
                    .divide(BigDecimal.valueOf(denominator), 3, RoundingMode.HALF_UP)
                    .doubleValue();
        }
    }

    /**
     * Speed knob that never changes results: tokens with postings in at least {@code denseMinIntents} and at least
     * {@code denseIntentFraction}·M intents are <em>frequent</em>; their normalised centroid weights are also kept as
     * dense columns (memory at most 1/denseIntentFraction times their postings), see {@link #classify}.
     */
    record Tuning(int denseMinIntents, double denseIntentFraction) {
        static final Tuning DEFAULT = new Tuning(64, 1.0 / 16);
        /** Every weighted token frequent: exercises the bounded path on small flows (tests). */
        static final Tuning ALL_FREQUENT = new Tuning(1, 0.0);
    }

    /**
     * Classifies every tokenised sentence. The score of intent j for sentence s is x_s·c_j/|c_j| (cosine times the
     * constant |x_s|), summed as: the sparse tokens of s via postings, plus the frequent tokens of s in token
     * order. Frequent tokens have low IDF, so their contribution to any intent is bounded by
     * UB = Σ_frequent x_s[t]·max_j(c_j[t]/|c_j|). First only the intents reached through sparse tokens (and s's own
     * intent) are scored; if the best of them beats UB beyond the tie tolerance, no other intent can win or tie
     * and the dense scan is skipped. Otherwise all intents are scored with dense columns. Both paths compute
     * bit-identical scores, so the result is that of scoring every intent.
     */
    static Confusion classify(Corpus corpus, Tuning tuning) {
        int n = corpus.intentCount;
        int v = corpus.vocabularySize;
        int[][] tokens = corpus.tokens;
        int[][] counts = corpus.counts;

        // IDF over intents: ln(M / m_t), M = intents with a tokenised sentence, m_t = those of them containing t.
        int active = 0;
        int[] intentFrequency = new int[v];
        for (int i = 0; i < n; i++) {
            if (corpus.sentenceCount(i) > 0) {
                active++;
            }
            for (int t : corpus.vocabulary[i]) {
                intentFrequency[t]++;
            }
        }
        double[] idf = new double[v];
        for (int t = 0; t < v; t++) {
            int m = intentFrequency[t];
            if (m > 0 && m < active) {
                idf[t] = Math.log((double) active / m);
            }
        }

        // Sentence norms |x_s|, x_s[t] = tf * idf[t].
        int sentenceTotal = tokens.length;
        double[] norm = new double[sentenceTotal];
        for (int s = 0; s < sentenceTotal; s++) {
            double sum = 0;
            int[] tok = tokens[s];
            int[] cnt = counts[s];
            for (int k = 0; k < tok.length; k++) {
                double x = cnt[k] * idf[tok[k]];
                sum += x * x;
            }
            norm[s] = Math.sqrt(sum);
        }

        // Inverted index in CSR form; intents ascending within every token. Raw centroid weights c_j[t] (for the
        // leave-one-out of the own intent) and normalised ones c_j[t]/|c_j| (for scoring).
        int[] offset = new int[v + 1];
        for (int i = 0; i < n; i++) {
            for (int t : corpus.vocabulary[i]) {
                if (idf[t] > 0) {
                    offset[t + 1]++;
                }
            }
        }
        for (int t = 0; t < v; t++) {
            offset[t + 1] += offset[t];
        }
        int[] fill = Arrays.copyOf(offset, v);
        int[] postingIntent = new int[offset[v]];
        double[] postingWeight = new double[offset[v]];
        double[] postingScore = new double[offset[v]];
        double[] centroidNorm2 = new double[n];
        int[] weighted = new int[n]; // sentences with a non-zero vector
        double[] dense = new double[v];
        for (int i = 0; i < n; i++) {
            for (int s = corpus.sentenceStart[i]; s < corpus.sentenceStart[i + 1]; s++) {
                if (norm[s] == 0) {
                    continue;
                }
                weighted[i]++;
                int[] tok = tokens[s];
                int[] cnt = counts[s];
                for (int k = 0; k < tok.length; k++) {
                    dense[tok[k]] += unit(cnt[k], idf[tok[k]], norm[s]);
                }
            }
            double sum = 0;
            for (int t : corpus.vocabulary[i]) {
                if (idf[t] > 0) {
                    double w = dense[t];
                    int p = fill[t]++;
                    postingIntent[p] = i;
                    postingWeight[p] = w;
                    sum += w * w;
                }
                dense[t] = 0;
            }
            centroidNorm2[i] = sum;
            double length = Math.sqrt(sum);
            for (int t : corpus.vocabulary[i]) {
                if (idf[t] > 0) {
                    int p = fill[t] - 1;
                    postingScore[p] = postingWeight[p] / length;
                }
            }
        }

        // Dense columns of the frequent tokens (normalised weights) and their maxima.
        double[][] column = new double[v][];
        double[] columnMax = new double[v];
        for (int t = 0; t < v; t++) {
            int m = offset[t + 1] - offset[t];
            if (m > 0 && m >= tuning.denseMinIntents() && m >= tuning.denseIntentFraction() * active) {
                double[] col = new double[n];
                double max = 0;
                for (int p = offset[t]; p < offset[t + 1]; p++) {
                    col[postingIntent[p]] = postingScore[p];
                    max = Math.max(max, postingScore[p]);
                }
                column[t] = col;
                columnMax[t] = max;
            }
        }

        int[] truePositives = new int[n];
        int[] falsePositives = new int[n];
        int[] classified = new int[n];
        double[] acc = new double[n];
        double[] denseAcc = new double[n];
        int[] touched = new int[n];
        double[] score = new double[n];
        int[] frequent = new int[16];
        double[] frequentQ = new double[16];
        for (int i = 0; i < n; i++) {
            for (int s = corpus.sentenceStart[i]; s < corpus.sentenceStart[i + 1]; s++) {
                classified[i]++;
                if (norm[s] == 0) {
                    continue; // no weighted token: unpredicted
                }
                int[] tok = tokens[s];
                int[] cnt = counts[s];
                int touchedCount = 0;
                int frequentCount = 0;
                double bound = 0;
                for (int k = 0; k < tok.length; k++) {
                    int t = tok[k];
                    double weight = idf[t];
                    if (weight == 0) {
                        continue;
                    }
                    double q = cnt[k] * weight;
                    if (column[t] != null) {
                        if (frequentCount == frequent.length) {
                            frequent = Arrays.copyOf(frequent, 2 * frequentCount);
                            frequentQ = Arrays.copyOf(frequentQ, 2 * frequentCount);
                        }
                        frequent[frequentCount] = t;
                        frequentQ[frequentCount++] = q;
                        bound += q * columnMax[t];
                        continue;
                    }
                    for (int p = offset[t], end = offset[t + 1]; p < end; p++) {
                        int j = postingIntent[p];
                        double before = acc[j];
                        if (before == 0) {
                            touched[touchedCount++] = j;
                        }
                        acc[j] = before + q * postingScore[p];
                    }
                }
                double own = ownScore(i, tok, cnt, idf, norm[s], weighted[i], centroidNorm2[i], offset,
                        postingIntent, postingWeight);
                // Candidates reached by sparse tokens, plus the own intent.
                double best = own;
                for (int k = 0; k < touchedCount; k++) {
                    int j = touched[k];
                    double sc = 0;
                    if (j != i) {
                        double d = 0;
                        for (int f = 0; f < frequentCount; f++) {
                            d += frequentQ[f] * column[frequent[f]][j];
                        }
                        sc = acc[j] + d;
                    }
                    score[k] = sc;
                    if (sc > best) {
                        best = sc;
                    }
                }
                int predicted = Integer.MAX_VALUE;
                if (frequentCount == 0 || bound * (1 + 1e-9) < best * (1 - TIE_TOLERANCE)) {
                    if (best > 0) {
                        double threshold = best * (1 - TIE_TOLERANCE);
                        if (own >= threshold) {
                            predicted = i;
                        }
                        for (int k = 0; k < touchedCount; k++) {
                            if (touched[k] != i && score[k] >= threshold && touched[k] < predicted) {
                                predicted = touched[k];
                            }
                        }
                    }
                } else {
                    // Score every intent: sparse part (acc, zero where untouched) + frequent part in token order.
                    Arrays.fill(denseAcc, 0);
                    for (int f = 0; f < frequentCount; f++) {
                        double q = frequentQ[f];
                        double[] col = column[frequent[f]];
                        for (int j = 0; j < n; j++) {
                            denseAcc[j] += q * col[j];
                        }
                    }
                    best = own;
                    for (int j = 0; j < n; j++) {
                        if (j != i) {
                            double sc = acc[j] + denseAcc[j];
                            denseAcc[j] = sc;
                            if (sc > best) {
                                best = sc;
                            }
                        }
                    }
                    if (best > 0) {
                        double threshold = best * (1 - TIE_TOLERANCE);
                        for (int j = 0; j < n; j++) {
                            if (j == i ? own >= threshold : denseAcc[j] >= threshold) {
                                predicted = j;
                                break;
                            }
                        }
                    }
                }
                for (int k = 0; k < touchedCount; k++) {
                    acc[touched[k]] = 0;
                }
                if (predicted == i) {
                    truePositives[i]++;
                } else if (predicted != Integer.MAX_VALUE) {
                    falsePositives[predicted]++;
                }
            }
        }
        return new Confusion(truePositives, falsePositives, classified);
    }

    /** Component of the unit vector x_s / |x_s|; the one formula used both to build and to remove a sentence. */
    private static double unit(int count, double idf, double norm) {
        return count * idf / norm;
    }

    /**
     * Cosine (times |x_s|) between sentence s and its own intent's centroid with s removed, 0 when that centroid is
     * empty. Computed per token of s
     * as c[t] - x̂_s[t], which is exactly 0 (never negative noise) for tokens no other sentence of the intent has.
     */
    private static double ownScore(int intent, int[] tok, int[] cnt, double[] idf, double norm,
            int weightedSentences, double centroidNorm2, int[] offset, int[] postingIntent, double[] postingWeight) {
        if (weightedSentences < 2) {
            return 0; // the centroid without s is empty: an intent never classifies its only sentence
        }
        double dot = 0;
        double inside = 0;
        double removed = 0;
        for (int k = 0; k < tok.length; k++) {
            int t = tok[k];
            if (idf[t] == 0) {
                continue;
            }
            int p = Arrays.binarySearch(postingIntent, offset[t], offset[t + 1], intent);
            double w = postingWeight[p];
            double rest = Math.max(0, w - unit(cnt[k], idf[t], norm));
            dot += cnt[k] * idf[t] * rest;
            inside += rest * rest;
            removed += w * w;
        }
        if (dot <= 0) {
            return 0;
        }
        double length2 = Math.max(0, centroidNorm2 - removed) + inside;
        return dot / Math.sqrt(length2);
    }
}
