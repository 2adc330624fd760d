package ai.convo.command.training;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One-against-the-rest logistic regression for flows with many intents or a vocabulary too large for a dense
 * model, where LibLinear's own loop (every intent against every sentence, a weight for every feature and intent)
 * costs intents x sentences in time and intents x features in memory. Each intent is trained against its own
 * sentences and a seeded sample of the others ({@link #NEGATIVES_PER_POSITIVE} per sentence, at least
 * {@link #MIN_NEGATIVES}), over only the features those sentences have, and keeps only the weights that move a
 * score ({@link #MIN_WEIGHT}), at most its share of {@link #WEIGHT_BUDGET}: a sparse model in which every intent
 * keeps its own words, whatever the size of the flow's vocabulary. Probabilities as {@link IntentModel} reads.
 */
final class SampledOneVsRest {

    /** Above this many (intents x sentences), this trainer is used instead of LibLinear's multi-class loop. */
    static final long ABOVE = 2_000_000L;
    static final int NEGATIVES_PER_POSITIVE = 20;
    static final int MIN_NEGATIVES = 1_000;
    /** A weight smaller than this changes a sentence's log-odds by less than a hundredth: not kept. */
    static final float MIN_WEIGHT = 0.01f;
    /** Weights a model keeps in all (besides each intent's bias); an intent keeps its largest, up to its share. */
    static final long WEIGHT_BUDGET = 40_000_000L;
    /** The share no intent goes below; a flow with more intents than the budget allows at it is refused. */
    static final int MIN_PER_INTENT = 200;

    private SampledOneVsRest() {
    }

    static String config() {
        return ";sampledOvrAbove=" + ABOVE + ";negatives=" + NEGATIVES_PER_POSITIVE + "x,min" + MIN_NEGATIVES
                + ";sparse:minWeight=" + MIN_WEIGHT + ",budget=" + WEIGHT_BUDGET + ",minPerIntent=" + MIN_PER_INTENT;
    }

    /** The sparse model of these examples (their features given). */
    static IntentModel.Sparse train(List<TrainingSet.Example> examples, List<String[]> featureNames,
                                    Cancellation cancellation) {
        TreeSet<String> sorted = new TreeSet<>();
        featureNames.forEach(names -> sorted.addAll(Arrays.asList(names)));
        List<String> features = new ArrayList<>(sorted);
        Map<String, Integer> number = new HashMap<>(features.size() * 2);
        for (int i = 0; i < features.size(); i++) {
            number.put(features.get(i), i);
        }
        // the sentences as sorted feature numbers, grouped by intent in id order
        TreeMap<String, List<Integer>> byIntent = new TreeMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        List<int[]> rows = new ArrayList<>(examples.size());
        for (int i = 0; i < examples.size(); i++) {
            int[] ids = Arrays.stream(featureNames.get(i)).mapToInt(number::get).sorted().toArray();
            if (ids.length == 0) {
                continue; // nothing the analyser keeps (punctuation only): nothing to learn from
            }
            byIntent.computeIfAbsent(examples.get(i).intentId(), k -> new ArrayList<>()).add(rows.size());
            names.put(examples.get(i).intentId(), examples.get(i).intentName());
            rows.add(ids);
        }
        int classes = byIntent.size();
        if ((long) classes * MIN_PER_INTENT > WEIGHT_BUDGET) {
            throw new IntentTrainer.TooLarge("The flow has " + classes + " intents; a model keeps up to "
                    + WEIGHT_BUDGET + " weights, at least " + MIN_PER_INTENT + " for each intent, so at most "
                    + WEIGHT_BUDGET / MIN_PER_INTENT + " intents can be trained together.");
        }
        int share = (int) Math.min(Integer.MAX_VALUE, Math.max(MIN_PER_INTENT, WEIGHT_BUDGET / classes));
        List<String[]> labels = new ArrayList<>(classes);
        byIntent.keySet().forEach(id -> labels.add(new String[] {id, names.get(id)}));
        int[][] keptFeatures = new int[classes][];
        float[][] keptWeights = new float[classes][];
        float[] biases = new float[classes];
        int[] local = new int[features.size()];
        Parameter parameter = new Parameter(SolverType.L2R_LR, IntentTrainer.COST, IntentTrainer.EPSILON,
                IntentTrainer.MAX_ITERATIONS, 0.1);
        int c = 0;
        for (List<Integer> positives : byIntent.values()) {
            List<Integer> chosen = sample(rows.size(), positives, new SplittableRandom(IntentTrainer.SEED + c));
            int[] global = used(rows, chosen, local);
            Model model = Linear.train(problem(rows, chosen, positives.size(), local, global.length, cancellation),
                    parameter);
            // the positives come first, so LibLinear's first label (whose weights it keeps) is this intent
            int[] keptLocal = largest(model, global.length, share);
            keptFeatures[c] = new int[keptLocal.length];
            keptWeights[c] = new float[keptLocal.length];
            for (int k = 0; k < keptLocal.length; k++) {
                keptFeatures[c][k] = global[keptLocal[k] - 1];
                keptWeights[c][k] = (float) model.getDecfunCoef(keptLocal[k], 0);
            }
            biases[c] = (float) model.getDecfunCoef(global.length + 1, 0);
            for (int g : global) {
                local[g] = 0;
            }
            c++;
        }
        return transpose(labels, features, keptFeatures, keptWeights, biases);
    }

    /** The intent's sentences and a seeded sample of the others, positives first. */
    private static List<Integer> sample(int rows, List<Integer> positives, SplittableRandom random) {
        Set<Integer> own = new HashSet<>(positives);
        int others = rows - positives.size();
        int wanted = Math.min(others, Math.max(MIN_NEGATIVES, NEGATIVES_PER_POSITIVE * positives.size()));
        List<Integer> chosen = new ArrayList<>(positives.size() + wanted);
        chosen.addAll(positives);
        if (wanted == others) {
            for (int i = 0; i < rows; i++) {
                if (!own.contains(i)) {
                    chosen.add(i);
                }
            }
            return chosen;
        }
        Set<Integer> negatives = new LinkedHashSet<>();
        while (negatives.size() < wanted) {
            int i = random.nextInt(rows);
            if (!own.contains(i)) {
                negatives.add(i);
            }
        }
        chosen.addAll(negatives);
        return chosen;
    }

    /** The chosen rows' features, ascending; {@code local} numbers them 1.. for this problem (0: not used). */
    private static int[] used(List<int[]> rows, List<Integer> chosen, int[] local) {
        int count = 0;
        for (int row : chosen) {
            for (int g : rows.get(row)) {
                if (local[g] == 0) {
                    local[g] = -1;
                    count++;
                }
            }
        }
        int[] global = new int[count];
        int n = 0;
        for (int row : chosen) {
            for (int g : rows.get(row)) {
                if (local[g] == -1) {
                    local[g] = -2;
                    global[n++] = g;
                }
            }
        }
        Arrays.sort(global);
        for (int i = 0; i < global.length; i++) {
            local[global[i]] = i + 1;
        }
        return global;
    }

    /** The chosen rows in the problem's numbering, +1 for the first {@code positives}, the bias last in each row. */
    private static Problem problem(List<int[]> rows, List<Integer> chosen, int positives, int[] local, int features,
                                   Cancellation cancellation) {
        Problem problem = new Problem();
        problem.l = chosen.size();
        problem.n = features + 1;
        problem.bias = -1; // the bias is the last feature of every row, as Tribuo lays it out
        problem.x = new Feature[chosen.size()][];
        problem.y = new double[chosen.size()];
        for (int k = 0; k < chosen.size(); k++) {
            int[] ids = rows.get(chosen.get(k));
            Feature[] row = new Feature[ids.length + 1];
            for (int i = 0; i < ids.length; i++) {
                row[i] = new FeatureNode(local[ids[i]], 1.0); // ascending: the numbering keeps the order
            }
            row[ids.length] = new Cancellation.Checked(features + 1, 1.0, cancellation);
            problem.x[k] = row;
            problem.y[k] = k < positives ? 1 : -1;
        }
        return problem;
    }

    /**
     * The problem's features (1-based) whose weights are kept, ascending: those of at least {@link #MIN_WEIGHT},
     * the largest {@code share} of them when there are more (ties by feature number).
     */
    private static int[] largest(Model model, int features, int share) {
        List<Integer> kept = new ArrayList<>();
        for (int f = 1; f <= features; f++) {
            if (Math.abs(model.getDecfunCoef(f, 0)) >= MIN_WEIGHT) {
                kept.add(f);
            }
        }
        if (kept.size() > share) {
            kept.sort((a, b) -> {
                int bySize = Double.compare(Math.abs(model.getDecfunCoef(b, 0)), Math.abs(model.getDecfunCoef(a, 0)));
                return bySize != 0 ? bySize : Integer.compare(a, b);
            });
            kept = kept.subList(0, share);
        }
        return kept.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /** From each intent's weights to each feature's (classes ascending), the bias row last with every intent. */
    private static IntentModel.Sparse transpose(List<String[]> labels, List<String> features, int[][] keptFeatures,
                                                float[][] keptWeights, float[] biases) {
        int classes = labels.size();
        int[] offsets = new int[features.size() + 2];
        long count = classes;
        for (int[] own : keptFeatures) {
            for (int f : own) {
                offsets[f + 1]++;
            }
            count += own.length;
        }
        offsets[features.size() + 1] = classes;
        for (int f = 0; f < offsets.length - 1; f++) {
            offsets[f + 1] += offsets[f];
        }
        int[] next = Arrays.copyOf(offsets, offsets.length - 1);
        int[] classOf = new int[Math.toIntExact(count)];
        float[] weights = new float[classOf.length];
        for (int c = 0; c < classes; c++) {
            for (int k = 0; k < keptFeatures[c].length; k++) {
                int at = next[keptFeatures[c][k]]++;
                classOf[at] = c;
                weights[at] = keptWeights[c][k];
            }
            keptFeatures[c] = null;
            keptWeights[c] = null;
            int at = next[features.size()]++;
            classOf[at] = c;
            weights[at] = biases[c];
        }
        return new IntentModel.Sparse(labels, features, offsets, classOf, weights);
    }
}
