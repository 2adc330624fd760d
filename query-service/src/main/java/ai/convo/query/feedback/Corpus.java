package ai.convo.query.feedback;

import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tokenised flow in a compact, canonical form shared by all measures.
 *
 * <ul>
 *   <li>Intents are numbered 0..n-1 in ascending {@link String#compareTo} order of their ids.</li>
 *   <li>Within an intent, sentences are processed in ascending {@link String#compareTo} order, so floating-point
 *       sums never depend on the input order.</li>
 *   <li>Only <em>tokenised</em> sentences (at least one token) are kept.</li>
 *   <li>Tokens are numbered by their global rank: ascending number of tokenised sentences containing them,
 *       ties by token text. Every token array is sorted ascending, i.e. rarest token first, which is the global
 *       order the prefix filters need.</li>
 * </ul>
 */
final class Corpus {

    final int intentCount;
    final String[] ids;
    final String[] names;
    /** Number of sentences as given (including sentences without any token). */
    final int[] givenSentenceCount;
    /** Tokenised sentences of intent i are {@code sentenceStart[i] .. sentenceStart[i+1]-1}. */
    final int[] sentenceStart;
    /** Per tokenised sentence: its distinct token ranks, ascending. */
    final int[][] tokens;
    /** Per tokenised sentence: the occurrence count of each token in {@link #tokens}, same positions. */
    final int[][] counts;
    final int vocabularySize;
    /** Per intent: the distinct token ranks of all its tokenised sentences, ascending. */
    final int[][] vocabulary;

    private Corpus(String[] ids, String[] names, int[] givenSentenceCount, int[] sentenceStart, int[][] tokens,
            int[][] counts, int vocabularySize, int[][] vocabulary) {
        this.intentCount = ids.length;
        this.ids = ids;
        this.names = names;
        this.givenSentenceCount = givenSentenceCount;
        this.sentenceStart = sentenceStart;
        this.tokens = tokens;
        this.counts = counts;
        this.vocabularySize = vocabularySize;
        this.vocabulary = vocabulary;
    }

    int sentenceCount(int intent) {
        return sentenceStart[intent + 1] - sentenceStart[intent];
    }

    /** @param sortedIntents the intents, already sorted by id and free of duplicate ids */
    static Corpus of(List<IntentSentences> sortedIntents) {
        int n = sortedIntents.size();
        String[] ids = new String[n];
        String[] names = new String[n];
        int[] given = new int[n];
        int[] start = new int[n + 1];
        Map<String, Integer> provisional = new HashMap<>();
        List<String> texts = new ArrayList<>();
        List<int[]> raw = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IntentSentences intent = sortedIntents.get(i);
            ids[i] = intent.intentId();
            names[i] = intent.name();
            given[i] = intent.sentences().size();
            start[i] = raw.size();
            String[] sentences = intent.sentences().toArray(String[]::new);
            Arrays.sort(sentences);
            for (String sentence : sentences) {
                List<String> words = Tokenizer.tokens(sentence);
                if (words.isEmpty()) {
                    continue;
                }
                int[] ws = new int[words.size()];
                for (int k = 0; k < ws.length; k++) {
                    ws[k] = provisional.computeIfAbsent(words.get(k), w -> {
                        texts.add(w);
                        return texts.size() - 1;
                    });
                }
                raw.add(ws);
            }
        }
        start[n] = raw.size();

        // Sentence frequency of every token, then the global rank (rarest first, ties by text).
        int v = texts.size();
        int[] frequency = new int[v];
        int[][] distinct = new int[raw.size()][];
        int[][] counts = new int[raw.size()][];
        for (int s = 0; s < raw.size(); s++) {
            int[] ws = raw.get(s);
            Arrays.sort(ws);
            int d = 0;
            for (int k = 0; k < ws.length; k++) {
                if (k == 0 || ws[k] != ws[k - 1]) {
                    d++;
                }
            }
            int[] tok = new int[d];
            int[] cnt = new int[d];
            int p = -1;
            for (int k = 0; k < ws.length; k++) {
                if (k == 0 || ws[k] != ws[k - 1]) {
                    tok[++p] = ws[k];
                    frequency[ws[k]]++;
                }
                cnt[p]++;
            }
            distinct[s] = tok;
            counts[s] = cnt;
            raw.set(s, null);
        }
        Integer[] order = new Integer[v];
        for (int t = 0; t < v; t++) {
            order[t] = t;
        }
        Arrays.sort(order, (a, b) -> frequency[a] != frequency[b]
                ? Integer.compare(frequency[a], frequency[b])
                : texts.get(a).compareTo(texts.get(b)));
        int[] rank = new int[v];
        for (int r = 0; r < v; r++) {
            rank[order[r]] = r;
        }
        long[] scratch = new long[0];
        for (int s = 0; s < distinct.length; s++) {
            int[] tok = distinct[s];
            int[] cnt = counts[s];
            if (scratch.length < tok.length) {
                scratch = new long[Math.max(tok.length, 2 * scratch.length)];
            }
            for (int k = 0; k < tok.length; k++) {
                scratch[k] = ((long) rank[tok[k]] << 32) | cnt[k];
            }
            Arrays.sort(scratch, 0, tok.length);
            for (int k = 0; k < tok.length; k++) {
                tok[k] = (int) (scratch[k] >>> 32);
                cnt[k] = (int) scratch[k];
            }
        }

        int[][] vocabulary = new int[n][];
        for (int i = 0; i < n; i++) {
            int total = 0;
            for (int s = start[i]; s < start[i + 1]; s++) {
                total += distinct[s].length;
            }
            int[] all = new int[total];
            int p = 0;
            for (int s = start[i]; s < start[i + 1]; s++) {
                System.arraycopy(distinct[s], 0, all, p, distinct[s].length);
                p += distinct[s].length;
            }
            Arrays.sort(all);
            int d = 0;
            for (int k = 0; k < all.length; k++) {
                if (k == 0 || all[k] != all[k - 1]) {
                    all[d++] = all[k];
                }
            }
            vocabulary[i] = Arrays.copyOf(all, d);
        }
        return new Corpus(ids, names, given, start, distinct, counts, v, vocabulary);
    }

    /** Size of the intersection of two ascending int arrays. */
    static int intersectionSize(int[] a, int[] b) {
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < a.length && j < b.length) {
            int x = a[i];
            int y = b[j];
            if (x == y) {
                common++;
                i++;
                j++;
            } else if (x < y) {
                i++;
            } else {
                j++;
            }
        }
        return common;
    }
}
