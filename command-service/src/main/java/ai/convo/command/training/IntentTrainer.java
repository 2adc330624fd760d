package ai.convo.command.training;

import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.util.Version;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.MutableDataset;
import org.tribuo.Tribuo;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.liblinear.LibLinearClassificationModel;
import org.tribuo.classification.liblinear.LibLinearClassificationTrainer;
import org.tribuo.classification.liblinear.LinearClassificationType;
import org.tribuo.impl.ArrayExample;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Trains a flow's intent classifier in-process: Tribuo's LibLinear logistic regression (L2R_LR, one against the
 * rest) on {@link Features}. Pure and deterministic: the trainer is made anew for every training (Tribuo numbers its
 * invocations), the examples come in the training set's canonical order, and the stored form carries no time or
 * host. The model id hashes the training set with everything else that decides the weights.
 */
final class IntentTrainer {

    static final double COST = 1.0;
    static final double EPSILON = 0.01;
    static final int MAX_ITERATIONS = 1000;
    static final long SEED = 40L;
    /**
     * Weights (features x intents) one model may have: LibLinear holds them as doubles while it trains (320 MB at
     * this budget) and the stored form as floats. Above it, features seen in one sentence only are dropped, then the
     * rarest (by document frequency), down to {@link #MIN_FEATURES}; a flow that needs fewer is refused.
     */
    static final long WEIGHT_BUDGET = 40_000_000L;
    static final int MIN_FEATURES = 1_000;

    static {
        // Tribuo logs each training at INFO through java.util.logging
        Logger.getLogger("org.tribuo").setLevel(Level.WARNING);
        Linear.disableDebugOutput();
    }

    /** A trained model: its id, its stored form and the form that predicts. */
    record Trained(String modelId, byte[] bytes, IntentModel model) {
    }

    private IntentTrainer() {
    }

    /** The configuration that, with the training set, decides the model's bytes. */
    static String config(String language) {
        return "analyser=" + Features.forLanguage(language).name() + ";language=" + language
                + ";trainer=tribuo-liblinear L2R_LR;C=" + COST + ";eps=" + EPSILON + ";maxIterations=" + MAX_ITERATIONS
                + ";seed=" + SEED + ";weightBudget=" + WEIGHT_BUDGET + ";minFeatures=" + MIN_FEATURES
                + SampledOneVsRest.config() + ";store=f32;tribuo=" + Tribuo.VERSION + ";liblinear=" + Linear.getVersion()
                + ";lucene=" + Version.LATEST;
    }

    /** sha256(training set hash, config): the same log position gives the same id, on any replica. */
    static String modelId(TrainingSet set) {
        MessageDigest digest = TrainingSet.sha256();
        digest.update(set.hash().getBytes(StandardCharsets.US_ASCII));
        digest.update((byte) '\n');
        digest.update(config(set.language()).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Whether the set can be trained at all: two intents with sentences at least. */
    static boolean trainable(TrainingSet set) {
        return set.intentIds().size() >= 2;
    }

    static Trained train(TrainingSet set) {
        Features features = Features.forLanguage(set.language());
        List<String[]> featureNames = new ArrayList<>(set.examples().size());
        for (TrainingSet.Example example : set.examples()) {
            featureNames.add(features.of(example.text()));
        }
        String config = config(set.language());
        if (SampledOneVsRest.applies(set.intentIds().size(), set.examples().size())) {
            IntentModel.Unfilled[] stored = new IntentModel.Unfilled[1];
            SampledOneVsRest.train(set.examples(), featureNames, (labels, kept, count) -> {
                stored[0] = IntentModel.allocate(config, set.language(), labels, kept, count);
                return stored[0].weights();
            });
            return new Trained(modelId(set), stored[0].bytes(), IntentModel.read(stored[0].bytes()));
        }
        Fitted fitted = fit(set.examples(), featureNames);
        Map<String, String> names = new HashMap<>();
        set.examples().forEach(e -> names.put(e.intentId(), e.intentName()));
        Map<Integer, String[]> labels = new HashMap<>();
        for (var entry : fitted.outputs()) {
            labels.put(entry.getA(), new String[] {entry.getB().getLabel(), names.get(entry.getB().getLabel())});
        }
        List<String> featureList = new ArrayList<>(fitted.features().size());
        for (int i = 0; i < fitted.features().size(); i++) {
            featureList.add(fitted.features().get(i).getName());
        }
        byte[] bytes = IntentModel.write(config, set.language(), labels, featureList, fitted.inner());
        return new Trained(modelId(set), bytes, IntentModel.read(bytes));
    }

    /** A flow too large to train within {@link #WEIGHT_BUDGET}; its message says why and what would fit. */
    static final class TooLarge extends RuntimeException {

        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The features the model may have: all of them while features x intents fits the budget; otherwise those of
     * at least two sentences, and then the most frequent ones (ties by name) up to what fits. Deterministic.
     */
    static Set<String> kept(List<String[]> featureNames, int intents) {
        Map<String, Integer> documents = new HashMap<>();
        for (String[] names : featureNames) {
            for (String name : names) {
                documents.merge(name, 1, Integer::sum);
            }
        }
        long fits = WEIGHT_BUDGET / Math.max(1, intents == 2 ? 1 : intents);
        if (documents.size() <= fits) {
            return documents.keySet();
        }
        if (fits < MIN_FEATURES) {
            throw new TooLarge("The flow has " + intents + " intents; a model keeps at least " + MIN_FEATURES
                    + " features for each, and " + WEIGHT_BUDGET + " weights in all, so at most "
                    + WEIGHT_BUDGET / MIN_FEATURES + " intents can be trained together.");
        }
        List<Map.Entry<String, Integer>> frequent = new ArrayList<>();
        documents.entrySet().stream().filter(e -> e.getValue() > 1).forEach(frequent::add);
        if (frequent.size() > fits) {
            frequent.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            frequent = frequent.subList(0, (int) fits);
        }
        Set<String> kept = new HashSet<>(frequent.size() * 2);
        frequent.forEach(e -> kept.add(e.getKey()));
        return kept;
    }

    /** The LibLinear model fitted on these examples (their features given), with Tribuo's numbering. */
    record Fitted(LibLinearClassificationModel tribuo, ImmutableFeatureMap features,
                  ImmutableOutputInfo<Label> outputs, Model inner) {
    }

    static Fitted fit(List<TrainingSet.Example> examples, List<String[]> featureNames) {
        LabelFactory labels = new LabelFactory();
        MutableDataset<Label> dataset = new MutableDataset<>(new SimpleDataSourceProvenance("intents", labels), labels);
        Set<String> kept = kept(featureNames, (int) examples.stream().map(TrainingSet.Example::intentId).distinct()
                .count());
        for (int i = 0; i < examples.size(); i++) {
            String[] names = featureNames.get(i);
            if (kept.size() < names.length || !kept.containsAll(java.util.Arrays.asList(names))) {
                names = java.util.Arrays.stream(names).filter(kept::contains).toArray(String[]::new);
            }
            if (names.length == 0) {
                continue; // nothing the analyser keeps (punctuation only): nothing to learn from
            }
            double[] values = new double[names.length];
            java.util.Arrays.fill(values, 1.0);
            dataset.add(new ArrayExample<>(new Label(examples.get(i).intentId()), names, values));
        }
        LibLinearClassificationTrainer trainer = new LibLinearClassificationTrainer(
                new LinearClassificationType(LinearClassificationType.LinearType.L2R_LR), COST, MAX_ITERATIONS,
                EPSILON, SEED);
        LibLinearClassificationModel model = (LibLinearClassificationModel) trainer.train(dataset);
        return new Fitted(model, model.getFeatureIDMap(), model.getOutputIDInfo(), innerModel(model));
    }

    /**
     * Tribuo's LibLinear model itself: getInnerModels() hands out a deep copy made through LibLinear's text format
     * (every weight printed and parsed again), which cost more than the training and a third weight matrix.
     */
    private static final java.lang.reflect.Field MODELS;

    static {
        try {
            MODELS = org.tribuo.common.liblinear.LibLinearModel.class.getDeclaredField("models");
            MODELS.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Model innerModel(LibLinearClassificationModel model) {
        try {
            return ((List<?>) MODELS.get(model)).stream().map(Model.class::cast).findFirst().orElseThrow();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
