package ai.convo.query.feedback;

import ai.convo.query.feedback.FeedbackAnalysis.Finding;
import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import ai.convo.query.feedback.FeedbackAnalysis.Report;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Scale check, not a unit test: a deterministic synthetic flow of 10,000 intents x 10 sentences over a vocabulary of
 * 20,000 words with Zipf(1) frequencies, analysed once to warm up and then 3 times; prints each duration, the median
 * and a summary of the results.
 *
 * <pre>
 * ./mvnw -o -q -pl query-service test-compile
 * java -cp query-service/target/classes:query-service/target/test-classes ai.convo.query.feedback.FeedbackScaleCheck [topicFrom]
 * </pre>
 */
public final class FeedbackScaleCheck {

    static final int INTENTS = 10_000;
    static final int SENTENCES = 10;
    static final int VOCABULARY = 20_000;

    private FeedbackScaleCheck() {
    }

    public static void main(String[] args) {
        CentroidClassifier.Tuning tuning = CentroidClassifier.Tuning.DEFAULT;
        // optional argument: the lowest rank of topic words (default 200; e.g. 0 makes topics common words too)
        int topicFrom = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        List<IntentSentences> flow = syntheticFlow(INTENTS, SENTENCES, VOCABULARY, 42, topicFrom);
        long words = flow.stream().flatMap(i -> i.sentences().stream()).mapToLong(s -> Tokenizer.tokens(s).size()).sum();
        System.out.printf("flow: %d intents, %d sentences, %d tokens%n", flow.size(),
                flow.stream().mapToInt(i -> i.sentences().size()).sum(), words);

        Map<String, Report> result = null;
        double[] wall = new double[3];
        double[] cpu = new double[3];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int run = 0; run <= 3; run++) {
            long start = System.nanoTime();
            long startCpu = threads.getCurrentThreadCpuTime();
            Map<String, Report> reports = FeedbackAnalysis.analyse(flow, tuning);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (threads.getCurrentThreadCpuTime() - startCpu) / 1e9;
            if (run == 0) {
                result = reports;
                System.out.printf("warm-up: %.2f s (thread CPU %.2f s)%n", seconds, cpuSeconds);
                continue;
            }
            wall[run - 1] = seconds;
            cpu[run - 1] = cpuSeconds;
            System.out.printf("run %d: %.2f s (thread CPU %.2f s)%n", run, seconds, cpuSeconds);
            if (!reports.equals(result)) {
                throw new AssertionError("non-deterministic result");
            }
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        System.out.printf("median: %.2f s (thread CPU %.2f s)%n", wall[1], cpu[1]);

        Map<String, Integer> byType = new TreeMap<>();
        double fSum = 0;
        long listed = 0;
        for (Report report : result.values()) {
            fSum += report.fScore();
            for (Finding finding : report.findings()) {
                byType.merge(finding.type(), 1, Integer::sum);
                listed += finding.intentIds().size();
            }
        }
        System.out.printf("mean fScore %.3f, findings by type %s, listed overlap partners %d%n",
                fSum / result.size(), byType, listed);
        Runtime rt = Runtime.getRuntime();
        System.out.printf("heap used after runs: %d MB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
    }

    /**
     * Every intent has 3 topic words (uniform over the ranks 200..vocabulary-1); a sentence holds 1-2 topic words
     * and 2-7 background words drawn with Zipf(1) frequencies. Deliberate overlaps: every 25th intent re-uses 3
     * sentences of the previous intent with one word replaced (near-identical, strongOverlap); every 40th intent
     * takes over the topic words of the previous one (vocabulary overlap); every 100th intent is chit-chat made of
     * the 50 most frequent words only.
     */
    static List<IntentSentences> syntheticFlow(int intents, int sentencesPerIntent, int vocabulary, long seed) {
        return syntheticFlow(intents, sentencesPerIntent, vocabulary, seed, 200);
    }

    /** As above, with topic words drawn from the ranks topicFrom..vocabulary-1 (a small value: common topics). */
    static List<IntentSentences> syntheticFlow(int intents, int sentencesPerIntent, int vocabulary, long seed,
            int topicFrom) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] cumulative = new double[vocabulary];
        double sum = 0;
        for (int r = 0; r < vocabulary; r++) {
            sum += 1.0 / (r + 1);
            cumulative[r] = sum;
        }
        String[] word = new String[vocabulary];
        for (int r = 0; r < vocabulary; r++) {
            word[r] = wordOf(r);
        }
        List<IntentSentences> flow = new ArrayList<>(intents);
        int[] topics = new int[3];
        List<String> previous = List.of();
        for (int i = 0; i < intents; i++) {
            boolean chitChat = i % 100 == 99;
            if (i % 40 != 39) {
                for (int k = 0; k < 3; k++) {
                    topics[k] = topicFrom + random.nextInt(vocabulary - topicFrom);
                }
            }
            List<String> sentences = new ArrayList<>(sentencesPerIntent);
            for (int s = 0; s < sentencesPerIntent; s++) {
                if (i % 25 == 24 && s < 3 && previous.size() > s) {
                    String[] copied = previous.get(s).split(" ");
                    copied[random.nextInt(copied.length)] = word[zipf(random, cumulative, sum)];
                    sentences.add(String.join(" ", copied));
                    continue;
                }
                List<String> tokens = new ArrayList<>();
                if (chitChat) {
                    int length = 2 + random.nextInt(4);
                    for (int k = 0; k < length; k++) {
                        tokens.add(word[random.nextInt(50)]);
                    }
                } else {
                    int topicWords = 1 + random.nextInt(2);
                    for (int k = 0; k < topicWords; k++) {
                        tokens.add(word[topics[random.nextInt(3)]]);
                    }
                    int background = 2 + random.nextInt(6);
                    for (int k = 0; k < background; k++) {
                        tokens.add(random.nextInt(tokens.size() + 1), word[zipf(random, cumulative, sum)]);
                    }
                }
                sentences.add(String.join(" ", tokens) + (s % 3 == 0 ? "?" : ""));
            }
            previous = sentences;
            flow.add(new IntentSentences(String.format("intent-%05d", i), "Intent " + i, sentences));
        }
        return flow;
    }

    private static int zipf(SplittableRandom random, double[] cumulative, double total) {
        int index = Arrays.binarySearch(cumulative, random.nextDouble() * total);
        return index >= 0 ? index : Math.min(-index - 1, cumulative.length - 1);
    }

    /** Rank as a pronounceable-ish lower-case word, e.g. 0 -> "ba", 1 -> "be". */
    private static String wordOf(int rank) {
        String consonants = "bcdfghjklmnpqrstvwxz";
        String vowels = "aeiou";
        StringBuilder b = new StringBuilder();
        int r = rank;
        do {
            b.append(consonants.charAt(r % 20)).append(vowels.charAt((r / 20) % 5));
            r /= 100;
        } while (r > 0);
        return b.toString();
    }
}
