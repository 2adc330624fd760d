package ai.convo.command.training;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Training time and peak heap for synthetic flows of 1k/10k/100k sentences (10 sentences an intent up to 100 intents, a 5,000-word
 * Zipf-ish vocabulary with 8 topic words per intent), and prediction latency. Medians of 3 after a warm-up.
 * Prints the share of training sentences ranked right and of held-out ones (the same intents, another seed).
 * Run: java -cp (test classpath) ai.convo.command.training.IntentTrainingBench [sizes...] [full] [intents=N]
 * (intents=N: N intents at every size instead of a tenth of the sentences up to 100; a flow the trainer refuses is
 * reported as such).
 */
public final class IntentTrainingBench {

    public static void main(String[] args) {
        boolean full = Arrays.asList(args).contains("full");
        int intents = Arrays.stream(args).filter(a -> a.startsWith("intents=")).mapToInt(a -> Integer.parseInt(
                a.substring("intents=".length()))).findFirst().orElse(0);
        int[] sizes = Arrays.stream(args).filter(a -> a.matches("\\d+")).mapToInt(Integer::parseInt).toArray();
        if (sizes.length == 0) {
            sizes = new int[] {1_000, 10_000, 100_000};
        }
        IntentTrainer.train(flow(1_000)); // warm-up
        for (int size : sizes) {
            TrainingSet set = intents > 0 ? flow(size, intents) : flow(size);
            long[] millis = new long[3];
            long[] peaks = new long[3];
            IntentTrainer.Trained trained = null;
            for (int run = 0; run < 3; run++) {
                System.gc();
                resetPeaks();
                long start = System.nanoTime();
                try {
                    trained = IntentTrainer.train(set);
                } catch (IntentTrainer.TooLarge refused) {
                    System.out.printf("%,d sentences / %,d intents: refused: %s%n", size, set.intentIds().size(),
                            refused.getMessage());
                    break;
                }
                if (full) {
                    CrossValidation.run(set, fold -> { });
                }
                millis[run] = (System.nanoTime() - start) / 1_000_000;
                peaks[run] = peakHeap() / (1 << 20);
            }
            if (trained == null) {
                continue;
            }
            Arrays.sort(millis);
            Arrays.sort(peaks);
            IntentModel model = trained.model();
            List<String> queries = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(7);
            int right = 0;
            for (int i = 0; i < 2_000; i++) {
                TrainingSet.Example example = set.examples().get(random.nextInt(set.examples().size()));
                queries.add(example.text());
                right += model.rank(example.text()).get(0).intentId().equals(example.intentId()) ? 1 : 0;
            }
            queries.forEach(model::rank); // warm-up
            long[] predict = new long[3];
            for (int run = 0; run < 3; run++) {
                long start = System.nanoTime();
                queries.forEach(model::rank);
                predict[run] = (System.nanoTime() - start) / queries.size();
            }
            Arrays.sort(predict);
            // held out: new sentences of the same intents (same topics, another seed), never trained on
            TrainingSet unseen = flow(2_000, set.intentIds().size(), 41);
            int heldOut = 0;
            for (TrainingSet.Example example : unseen.examples()) {
                heldOut += model.rank(example.text()).get(0).intentId().equals(example.intentId()) ? 1 : 0;
            }
            System.out.printf("%,d sentences / %,d intents (%s): train median %,d ms (runs %s), peak heap median %,d MB "
                            + "(runs %s), model %,d bytes, prediction median %,d us, training sentences ranked "
                            + "right %.1f %%, held-out sentences %.1f %%%n", size, set.intentIds().size(),
                    full ? "full: train + 5-fold CV" : "quick", millis[1], Arrays.toString(millis), peaks[1],
                    Arrays.toString(peaks), trained.bytes().length, predict[1] / 1000, right / 20.0,
                    heldOut * 100.0 / unseen.examples().size());
        }
    }

    static TrainingSet flow(int sentences) {
        return flow(sentences, Math.max(2, Math.min(sentences / 10, 100)));
    }

    static TrainingSet flow(int sentences, int intents) {
        return flow(sentences, intents, 40);
    }

    static TrainingSet flow(int sentences, int intents, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<TrainingSet.Example> examples = new ArrayList<>(sentences);
        for (int i = 0; i < sentences; i++) {
            int intent = seed == 40 ? i % intents : random.nextInt(intents);
            StringBuilder text = new StringBuilder();
            int words = 4 + random.nextInt(6);
            for (int w = 0; w < words; w++) {
                // half the words from the intent's own topic, half from a skewed shared vocabulary
                int word = random.nextBoolean() ? 5_000 + intent * 8 + random.nextInt(8)
                        : (int) Math.floor(Math.pow(random.nextDouble(), 3) * 5_000);
                text.append(w == 0 ? "" : " ").append("w").append(Integer.toString(word, 36));
            }
            examples.add(new TrainingSet.Example(String.format("%024d", intent), "Intent " + intent, text.toString()));
        }
        return new TrainingSet("en-US", examples);
    }

    private static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static long peakHeap() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }
}
