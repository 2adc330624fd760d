package ai.convo.query.feedback;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The two overlap measures between intents, both as exact similarity joins with prefix filtering over the
 * {@link Corpus} token order (rarest first). See {@link FeedbackAnalysis} for the definitions.
 */
final class OverlapFinder {

    /**
     * At most this many partners are listed per intent and finding: in a flow of n near-alike intents (an import of
     * generated ones) listing them all is n² pairs, which ran the refresher out of memory at 10,000 intents. Which
     * partners are listed beyond it follows the join's order (deterministic), not the lowest ids.
     */
    static final int PARTNERS_MAX = 100;
    /**
     * At most this many postings are read per probing set or intent, rarest token first, so the joins take at most
     * (sets + intents) × PROBE_MAX steps whatever the flow. Realistic flows stay well within it and are exact.
     */
    static final int PROBE_MAX = 10_000;

    private OverlapFinder() {
    }

    /**
     * Intent pairs with a near-identical sentence pair: Jaccard(a, b) = |a∩b| / |a∪b| ≥ 4/5, evaluated in integers
     * as 9·|a∩b| ≥ 4·(|a| + |b|).
     *
     * <p>Identical token sets are grouped first (any two intents sharing one are a pair). The distinct sets are then
     * joined with the AllPairs algorithm: sets are visited by ascending size; a set x probes the postings of its
     * first |x| − ⌈0.8·|x|⌉ + 1 tokens (its prefix), which hold the already visited sets whose own prefix contains
     * that token; sets smaller than 0.8·|x| are skipped for good; every candidate is verified exactly. If
     * J(x, y) ≥ t then |x∩y| ≥ ⌈t·max(|x|,|y|)⌉, so the rarest common token lies in both prefixes: below the caps
     * ({@link #PARTNERS_MAX}, {@link #PROBE_MAX}) the join misses nothing.
     *
     * @return per intent, the ascending partner intents
     */
    static int[][] strongPartners(Corpus corpus) {
        int n = corpus.intentCount;
        int[][] tokens = corpus.tokens;
        // Group identical token sets; set -> intents containing it (ascending, distinct).
        Map<Key, Integer> ids = new HashMap<>();
        int[] setOfSentence = new int[tokens.length];
        int[] firstSentence = new int[tokens.length];
        for (int s = 0; s < tokens.length; s++) {
            Integer id = ids.putIfAbsent(new Key(tokens[s]), ids.size());
            if (id == null) {
                id = ids.size() - 1;
                firstSentence[id] = s;
            }
            setOfSentence[s] = id;
        }
        int sets = ids.size();
        ids = null;
        int[] setIntentStart = new int[sets + 1];
        int[] lastIntent = new int[sets];
        Arrays.fill(lastIntent, -1);
        for (int i = 0; i < n; i++) {
            for (int s = corpus.sentenceStart[i]; s < corpus.sentenceStart[i + 1]; s++) {
                int x = setOfSentence[s];
                if (lastIntent[x] != i) {
                    lastIntent[x] = i;
                    setIntentStart[x + 1]++;
                }
            }
        }
        for (int x = 0; x < sets; x++) {
            setIntentStart[x + 1] += setIntentStart[x];
        }
        int[] setIntent = new int[setIntentStart[sets]];
        int[] fill = Arrays.copyOf(setIntentStart, sets);
        Arrays.fill(lastIntent, -1);
        for (int i = 0; i < n; i++) {
            for (int s = corpus.sentenceStart[i]; s < corpus.sentenceStart[i + 1]; s++) {
                int x = setOfSentence[s];
                if (lastIntent[x] != i) {
                    lastIntent[x] = i;
                    setIntent[fill[x]++] = i;
                }
            }
        }
        Partners pairs = new Partners(n);
        for (int x = 0; x < sets; x++) {
            int start = setIntentStart[x];
            int g = setIntentStart[x + 1] - start;
            if (g - 1 <= PARTNERS_MAX) {
                for (int a = start; a < start + g; a++) {
                    for (int b = a + 1; b < start + g; b++) {
                        pairs.add(setIntent[a], setIntent[b]);
                    }
                }
            } else {
                // more intents share this set than can be listed: each is paired with its PARTNERS_MAX neighbours
                // in the group (circularly), so all of them list some, in O(g) pairs instead of g²
                for (int j = 0; j < g; j++) {
                    for (int d = 1; d <= PARTNERS_MAX / 2; d++) {
                        pairs.add(setIntent[start + j], setIntent[start + (j + d) % g]);
                    }
                }
            }
        }

        // Visit distinct sets by ascending size (ties by set id).
        int[][] set = new int[sets][];
        for (int x = 0; x < sets; x++) {
            set[x] = tokens[firstSentence[x]];
        }
        Integer[] boxed = new Integer[sets];
        for (int x = 0; x < sets; x++) {
            boxed[x] = x;
        }
        Arrays.sort(boxed, (a, b) -> set[a].length != set[b].length
                ? Integer.compare(set[a].length, set[b].length) : Integer.compare(a, b));
        int[] order = new int[sets];
        for (int k = 0; k < sets; k++) {
            order[k] = boxed[k];
        }
        boxed = null;

        // Static prefix index: token -> visiting positions of the sets whose prefix holds it, ascending.
        int v = corpus.vocabularySize;
        int[] offset = new int[v + 1];
        for (int x = 0; x < sets; x++) {
            int[] tok = set[x];
            for (int k = 0, p = prefixLength(tok.length); k < p; k++) {
                offset[tok[k] + 1]++;
            }
        }
        for (int t = 0; t < v; t++) {
            offset[t + 1] += offset[t];
        }
        int[] posting = new int[offset[v]];
        int[] next = Arrays.copyOf(offset, v + 1);
        for (int pos = 0; pos < sets; pos++) {
            int[] tok = set[order[pos]];
            for (int k = 0, p = prefixLength(tok.length); k < p; k++) {
                posting[next[tok[k]]++] = pos;
            }
        }
        int[] begin = Arrays.copyOf(offset, v); // entries before begin[t] are too small for every later probe
        int[] seen = new int[sets];
        Arrays.fill(seen, -1);
        for (int pos = 0; pos < sets; pos++) {
            int x = order[pos];
            int[] tok = set[x];
            int size = tok.length;
            int budget = PROBE_MAX;
            boolean xFull = allFull(x, setIntentStart, setIntent, pairs);
            for (int k = 0, p = prefixLength(size); k < p && budget > 0; k++) {
                int t = tok[k];
                int q = begin[t];
                int end = offset[t + 1];
                while (q < end && 5 * set[order[posting[q]]].length < 4 * size) {
                    q++;
                }
                begin[t] = q;
                for (; q < end && budget-- > 0; q++) {
                    int other = posting[q];
                    if (other >= pos) {
                        break;
                    }
                    if (seen[other] == pos) {
                        continue;
                    }
                    seen[other] = pos;
                    int y = order[other];
                    if (sameSingleIntent(x, y, setIntentStart, setIntent)
                            || (xFull && allFull(y, setIntentStart, setIntent, pairs))) {
                        continue;
                    }
                    int common = Corpus.intersectionSize(tok, set[y]);
                    if (9L * common >= 4L * (size + set[y].length)) {
                        for (int a = setIntentStart[x]; a < setIntentStart[x + 1]; a++) {
                            if (pairs.full(setIntent[a]) && allFull(y, setIntentStart, setIntent, pairs)) {
                                continue;
                            }
                            for (int b = setIntentStart[y]; b < setIntentStart[y + 1]; b++) {
                                if (setIntent[a] != setIntent[b]) {
                                    pairs.add(setIntent[a], setIntent[b]);
                                }
                            }
                        }
                        xFull = allFull(x, setIntentStart, setIntent, pairs);
                    }
                }
            }
        }
        return pairs.partners(n);
    }

    /** |s| − ⌈0.8·|s|⌉ + 1, in integers. */
    static int prefixLength(int size) {
        return size - (4 * size + 4) / 5 + 1;
    }

    private static boolean allFull(int x, int[] start, int[] intent, Partners pairs) {
        for (int a = start[x]; a < start[x + 1]; a++) {
            if (!pairs.full(intent[a])) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameSingleIntent(int x, int y, int[] start, int[] intent) {
        return start[x + 1] - start[x] == 1 && start[y + 1] - start[y] == 1 && intent[start[x]] == intent[start[y]];
    }

    /**
     * Intent pairs whose vocabularies V (distinct tokens of all tokenised sentences) overlap largely:
     * min(|V_A|, |V_B|) ≥ 3 and |V_A∩V_B| ≥ 0.6·min(|V_A|, |V_B|), evaluated as 5·|V_A∩V_B| ≥ 3·min.
     *
     * <p>Intents are visited by ascending (|V|, index); A is only paired with later intents B, so |V_A| is the minimum
     * and the pair needs α = ⌈0.6·|V_A|⌉ common tokens. Then B must contain one of the first |V_A| − α + 1 tokens
     * of V_A (the prefix), so A probes a full inverted index (token &rarr; intents) with its prefix only, counts the
     * prefix hits per candidate and verifies the rest of V_A by binary search in V_B. Exact below the caps.
     */
    static int[][] vocabularyPartners(Corpus corpus) {
        int n = corpus.intentCount;
        int[][] vocabulary = corpus.vocabulary;
        Integer[] boxed = IntStream.range(0, n)
                .filter(i -> vocabulary[i].length >= 3)
                .boxed()
                .toArray(Integer[]::new);
        Arrays.sort(boxed, (a, b) -> vocabulary[a].length != vocabulary[b].length
                ? Integer.compare(vocabulary[a].length, vocabulary[b].length) : Integer.compare(a, b));
        int m = boxed.length;
        int[] position = new int[n];
        Arrays.fill(position, -1);
        for (int k = 0; k < m; k++) {
            position[boxed[k]] = k;
        }
        int v = corpus.vocabularySize;
        int[] offset = new int[v + 1];
        for (int k = 0; k < m; k++) {
            for (int t : vocabulary[boxed[k]]) {
                offset[t + 1]++;
            }
        }
        for (int t = 0; t < v; t++) {
            offset[t + 1] += offset[t];
        }
        int[] posting = new int[offset[v]];
        int[] fill = Arrays.copyOf(offset, v);
        for (int k = 0; k < m; k++) {
            for (int t : vocabulary[boxed[k]]) {
                posting[fill[t]++] = k;
            }
        }
        Partners pairs = new Partners(n);
        int[] hits = new int[m];
        int[] touched = new int[m];
        for (int pa = 0; pa < m; pa++) {
            int[] va = vocabulary[boxed[pa]];
            int need = (3 * va.length + 4) / 5;
            int prefix = va.length - need + 1;
            int touchedCount = 0;
            int budget = PROBE_MAX;
            for (int k = 0; k < prefix && budget > 0; k++) {
                int t = va[k];
                // postings ascend, so those of earlier intents (never paired from here) are passed by search
                int from = Arrays.binarySearch(posting, offset[t], offset[t + 1], pa + 1);
                for (int q = from >= 0 ? from : -from - 1, end = offset[t + 1]; q < end && budget-- > 0; q++) {
                    int pb = posting[q];
                    if (hits[pb]++ == 0) {
                        touched[touchedCount++] = pb;
                    }
                }
            }
            boolean cut = budget <= 0;
            for (int k = 0; k < touchedCount; k++) {
                int pb = touched[k];
                int common = hits[pb];
                hits[pb] = 0;
                int[] vb = vocabulary[boxed[pb]];
                if (pairs.full(boxed[pa]) && pairs.full(boxed[pb])) {
                    continue;
                }
                if (cut) { // some prefix postings were not read: count exactly
                    if (5 * Corpus.intersectionSize(va, vb) >= 3 * va.length) {
                        pairs.add(boxed[pa], boxed[pb]);
                    }
                    continue;
                }
                for (int r = prefix; r < va.length && common < need; r++) {
                    if (common + (va.length - r) < need) {
                        break;
                    }
                    if (Arrays.binarySearch(vb, va[r]) >= 0) {
                        common++;
                    }
                }
                if (common >= need) {
                    pairs.add(boxed[pa], boxed[pb]);
                }
            }
        }
        return pairs.partners(n);
    }

    /** An int[] as a hash key. */
    private record Key(int[] tokens) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(tokens, k.tokens);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(tokens);
        }
    }

    /** Per intent, its partners so far (at most {@link #PARTNERS_MAX}, in the order found). */
    static final class Partners {
        private final int[][] lists;
        private final int[] size;

        Partners(int n) {
            lists = new int[n][];
            size = new int[n];
        }

        boolean full(int a) {
            return size[a] >= PARTNERS_MAX;
        }

        /** Lists a and b as each other's partners, each where it has room. */
        void add(int a, int b) {
            put(a, b);
            put(b, a);
        }

        private void put(int a, int b) {
            int s = size[a];
            if (s >= PARTNERS_MAX) {
                return;
            }
            int[] list = lists[a];
            for (int k = 0; k < s; k++) {
                if (list[k] == b) {
                    return;
                }
            }
            if (list == null) {
                list = lists[a] = new int[4];
            } else if (s == list.length) {
                list = lists[a] = Arrays.copyOf(list, Math.min(2 * s, PARTNERS_MAX));
            }
            list[s] = b;
            size[a] = s + 1;
        }

        /** Per intent, its partners ascending. */
        int[][] partners(int n) {
            int[][] result = new int[n][];
            for (int i = 0; i < n; i++) {
                result[i] = lists[i] == null ? new int[0] : Arrays.copyOf(lists[i], size[i]);
                Arrays.sort(result[i]);
            }
            return result;
        }
    }
}
