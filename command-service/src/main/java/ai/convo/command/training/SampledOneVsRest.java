package ai.convo.command.training;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One-against-the-rest logistic regression for flows with many intents, where LibLinear's own loop (every intent
 * against every sentence) costs intents x sentences: each intent is trained against its own sentences and a seeded
 * sample of the others ({@link #NEGATIVES_PER_POSITIVE} per sentence, at least {@link #MIN_NEGATIVES}), and its
 * weights go straight into the model's float matrix, so no double matrix of all intents ever exists. Same layout,
 * features (sorted names, the bias last) and probabilities as {@link IntentModel} reads.
 */
final class SampledOneVsRest {

    /** Above this many (intents x sentences), this trainer is used instead of LibLinear's multi-class loop. */
    static final long ABOVE = 20_000_000L;
    static final int NEGATIVES_PER_POSITIVE = 20;
    static final int MIN_NEGATIVES = 1_000;

    private SampledOneVsRest() {
    }

    static boolean applies(int intents, int sentences) {
        return intents > 2 && (long) intents * sentences > ABOVE;
    }

    static String config() {
        return ";sampledOvrAbove=" + ABOVE + ";negatives=" + NEGATIVES_PER_POSITIVE + "x,min" + MIN_NEGATIVES;
    }

    /** Where the weights go, once the labels (intent id, name, in class order) and features are known. */
    interface Target {
        FloatBuffer weights(List<String[]> labels, List<String> features, int count);
    }

    /** Trains into {@code target}'s buffer, in IntentModel's layout. */
    static void train(List<TrainingSet.Example> examples, List<String[]> featureNames, Target target) {
        java.util.Set<String> kept = IntentTrainer.kept(featureNames, (int) examples.stream()
                .map(TrainingSet.Example::intentId).distinct().count());
        List<String> features = new ArrayList<>(new TreeSet<>(kept));
        Map<String, Integer> number = new HashMap<>(features.size() * 2);
        for (int i = 0; i < features.size(); i++) {
            number.put(features.get(i), i + 1);
        }
        int bias = features.size() + 1;
        // the sentences as LibLinear rows (sorted feature numbers, the bias last), grouped by intent in id order
        TreeMap<String, List<Integer>> byIntent = new TreeMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        List<Feature[]> rows = new ArrayList<>(examples.size());
        for (int i = 0; i < examples.size(); i++) {
            String[] own = featureNames.get(i);
            int[] ids = java.util.Arrays.stream(own).map(number::get).filter(java.util.Objects::nonNull)
                    .mapToInt(Integer::intValue).sorted().toArray();
            if (ids.length == 0) {
                continue; // nothing kept: nothing to learn from
            }
            Feature[] row = new Feature[ids.length + 1];
            for (int k = 0; k < ids.length; k++) {
                row[k] = new FeatureNode(ids[k], 1.0);
            }
            row[ids.length] = new FeatureNode(bias, 1.0);
            byIntent.computeIfAbsent(examples.get(i).intentId(), k -> new ArrayList<>()).add(rows.size());
            names.put(examples.get(i).intentId(), examples.get(i).intentName());
            rows.add(row);
        }
        int classes = byIntent.size();
        List<String[]> labels = new ArrayList<>(classes);
        byIntent.keySet().forEach(id -> labels.add(new String[] {id, names.get(id)}));
        FloatBuffer weights = target.weights(labels, features, Math.toIntExact((long) bias * classes));
        int c = 0;
        for (Map.Entry<String, List<Integer>> intent : byIntent.entrySet()) {
            Model model = Linear.train(problem(rows, intent.getValue(), bias, new SplittableRandom(IntentTrainer.SEED
                    + c)), new Parameter(SolverType.L2R_LR, IntentTrainer.COST, IntentTrainer.EPSILON,
                    IntentTrainer.MAX_ITERATIONS, 0.1));
            // the positives come first, so LibLinear's first label (whose weights it keeps) is this intent
            for (int f = 1; f <= bias; f++) {
                weights.put((f - 1) * classes + c, (float) model.getDecfunCoef(f, 0));
            }
            c++;
        }
    }

    /** The intent's sentences (+1) and a seeded sample of the others (-1), positives first. */
    private static Problem problem(List<Feature[]> rows, List<Integer> positives, int features,
                                   SplittableRandom random) {
        java.util.Set<Integer> own = new java.util.HashSet<>(positives);
        int others = rows.size() - positives.size();
        int wanted = Math.min(others, Math.max(MIN_NEGATIVES, NEGATIVES_PER_POSITIVE * positives.size()));
        List<Integer> chosen = new ArrayList<>(positives);
        if (wanted == others) {
            for (int i = 0; i < rows.size(); i++) {
                if (!own.contains(i)) {
                    chosen.add(i);
                }
            }
        } else {
            java.util.Set<Integer> negatives = new java.util.LinkedHashSet<>();
            while (negatives.size() < wanted) {
                int i = random.nextInt(rows.size());
                if (!own.contains(i)) {
                    negatives.add(i);
                }
            }
            chosen.addAll(negatives);
        }
        Problem problem = new Problem();
        problem.l = chosen.size();
        problem.n = features;
        problem.bias = -1; // the bias is the last feature of every row, as Tribuo lays it out
        problem.x = new Feature[chosen.size()][];
        problem.y = new double[chosen.size()];
        for (int k = 0; k < chosen.size(); k++) {
            problem.x[k] = rows.get(chosen.get(k));
            problem.y[k] = k < positives.size() ? 1 : -1;
        }
        return problem;
    }
}
