package ai.convo.query.feedback;

import java.math.BigInteger;
import java.util.SplittableRandom;

/**
 * The {@code unclearIntent} measure: the average pairwise Jaccard similarity of an intent's tokenised sentences.
 *
 * <p>Pairs are unordered pairs of distinct sentence positions (duplicated sentences count as a pair with
 * similarity 1). With at most {@value #EXACT_LIMIT} tokenised sentences every pair is evaluated; above that a
 * deterministic sample of {@value #SAMPLE_PAIRS} pairs (with replacement, drawn by a {@link SplittableRandom} seeded
 * with {@value #SEED} over the sentences in canonical order) is evaluated instead. The comparison
 * {@code average < 1/10} is done in exact rational arithmetic: Jaccard values are grouped by union size u, and
 * 10·Σ_u S_u/u &lt; pairs is checked with integers, S_u being the sum of intersection sizes of the pairs with union u.
 */
final class Coherence {

    static final int EXACT_LIMIT = 1_000;
    static final int SAMPLE_PAIRS = 500_000;
    static final long SEED = 20_240_917L;

    private Coherence() {
    }

    /** Whether the intent has at least 3 tokenised sentences whose average pairwise Jaccard similarity is below 0.1. */
    static boolean unclear(Corpus corpus, int intent) {
        int from = corpus.sentenceStart[intent];
        int n = corpus.sentenceCount(intent);
        if (n < 3) {
            return false;
        }
        int[][] tokens = corpus.tokens;
        int maxSize = 0;
        for (int s = from; s < from + n; s++) {
            maxSize = Math.max(maxSize, tokens[s].length);
        }
        long[] intersectionByUnion = new long[2 * maxSize + 1];
        long pairs;
        if (n <= EXACT_LIMIT) {
            pairs = (long) n * (n - 1) / 2;
            for (int a = from; a < from + n; a++) {
                for (int b = a + 1; b < from + n; b++) {
                    add(tokens[a], tokens[b], intersectionByUnion);
                }
            }
        } else {
            pairs = SAMPLE_PAIRS;
            SplittableRandom random = new SplittableRandom(SEED);
            for (int k = 0; k < SAMPLE_PAIRS; k++) {
                int a = random.nextInt(n);
                int b = random.nextInt(n - 1);
                if (b >= a) {
                    b++;
                }
                add(tokens[from + a], tokens[from + b], intersectionByUnion);
            }
        }
        // average < 1/10  <=>  10 * Σ_u S_u / u < pairs  <=>  10 * Σ_u S_u * (L/u) < pairs * L, L = lcm of the u.
        BigInteger lcm = BigInteger.ONE;
        for (int u = 1; u < intersectionByUnion.length; u++) {
            if (intersectionByUnion[u] != 0) {
                BigInteger bu = BigInteger.valueOf(u);
                lcm = lcm.divide(lcm.gcd(bu)).multiply(bu);
            }
        }
        BigInteger numerator = BigInteger.ZERO;
        for (int u = 1; u < intersectionByUnion.length; u++) {
            if (intersectionByUnion[u] != 0) {
                numerator = numerator.add(
                        BigInteger.valueOf(intersectionByUnion[u]).multiply(lcm.divide(BigInteger.valueOf(u))));
            }
        }
        return numerator.multiply(BigInteger.TEN).compareTo(BigInteger.valueOf(pairs).multiply(lcm)) < 0;
    }

    private static void add(int[] a, int[] b, long[] intersectionByUnion) {
        int common = Corpus.intersectionSize(a, b);
        if (common > 0) {
            intersectionByUnion[a.length + b.length - common] += common;
        }
    }
}
