package ai.convo.command.training;

import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
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
     * Weights (features x intents) a dense model may have: LibLinear holds them as doubles while it trains (320 MB at
     * this budget) and the stored form as floats. A flow above it is trained sparsely ({@link SampledOneVsRest}).
     */
    static final long WEIGHT_BUDGET = 40_000_000L;

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
                + ";seed=" + SEED + ";denseBudget=" + WEIGHT_BUDGET
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
        return train(set, Cancellation.NEVER);
    }

    static Trained train(TrainingSet set, Cancellation cancellation) {
        Features features = Features.forLanguage(set.language());
        List<String[]> featureNames = new ArrayList<>(set.examples().size());
        for (TrainingSet.Example example : set.examples()) {
            featureNames.add(features.of(example.text()));
        }
        String config = config(set.language());
        if (sparse(set.examples(), featureNames)) {
            byte[] bytes = IntentModel.write(config, set.language(), SampledOneVsRest.train(set.examples(),
                    featureNames, cancellation));
            return new Trained(modelId(set), bytes, IntentModel.read(bytes));
        }
        Fitted fitted = fit(set.examples(), featureNames, cancellation);
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

    /** A flow too large to train; its message says why and what would fit. */
    static final class TooLarge extends RuntimeException {

        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Whether these examples are trained sparsely: more than two intents, and either LibLinear's multi-class loop
     * would take too long (intents x sentences above {@link SampledOneVsRest#ABOVE}) or a dense model would not fit
     * {@link #WEIGHT_BUDGET} with every feature. Small flows keep LibLinear's exact multi-class model.
     */
    static boolean sparse(List<TrainingSet.Example> examples, List<String[]> featureNames) {
        long intents = examples.stream().map(TrainingSet.Example::intentId).distinct().count();
        if (intents <= 2) {
            return false;
        }
        if (intents * examples.size() > SampledOneVsRest.ABOVE) {
            return true;
        }
        Set<String> features = new HashSet<>();
        featureNames.forEach(names -> features.addAll(java.util.Arrays.asList(names)));
        return features.size() * intents > WEIGHT_BUDGET;
    }

    /** A model of these examples to predict with that is never stored (a cross-validation fold's). */
    static IntentModel unstored(List<TrainingSet.Example> examples, List<String[]> featureNames,
                                Cancellation cancellation) {
        if (sparse(examples, featureNames)) {
            return IntentModel.of(SampledOneVsRest.train(examples, featureNames, cancellation));
        }
        Fitted fitted = fit(examples, featureNames, cancellation);
        Map<String, String> names = new HashMap<>();
        examples.forEach(e -> names.put(e.intentId(), e.intentName()));
        Map<Integer, String[]> labels = new HashMap<>();
        fitted.outputs().forEach(p -> labels.put(p.getA(), new String[] {p.getB().getLabel(),
                names.get(p.getB().getLabel())}));
        List<String> featureList = new ArrayList<>(fitted.features().size());
        for (int i = 0; i < fitted.features().size(); i++) {
            featureList.add(fitted.features().get(i).getName());
        }
        return IntentModel.fitted(labels, featureList, fitted.inner());
    }

    /** The LibLinear model fitted on these examples (their features given), with Tribuo's numbering. */
    record Fitted(LibLinearClassificationModel tribuo, ImmutableFeatureMap features,
                  ImmutableOutputInfo<Label> outputs, Model inner) {
    }

    static Fitted fit(List<TrainingSet.Example> examples, List<String[]> featureNames) {
        return fit(examples, featureNames, Cancellation.NEVER);
    }

    static Fitted fit(List<TrainingSet.Example> examples, List<String[]> featureNames, Cancellation cancellation) {
        LabelFactory labels = new LabelFactory();
        MutableDataset<Label> dataset = new MutableDataset<>(new SimpleDataSourceProvenance("intents", labels), labels);
        for (int i = 0; i < examples.size(); i++) {
            String[] names = featureNames.get(i);
            if (names.length == 0) {
                continue; // nothing the analyser keeps (punctuation only): nothing to learn from
            }
            double[] values = new double[names.length];
            java.util.Arrays.fill(values, 1.0);
            dataset.add(new ArrayExample<>(new Label(examples.get(i).intentId()), names, values));
        }
        LibLinearClassificationTrainer trainer = new CancellableTrainer(cancellation);
        LibLinearClassificationModel model = (LibLinearClassificationModel) trainer.train(dataset);
        return new Fitted(model, model.getFeatureIDMap(), model.getOutputIDInfo(), innerModel(model));
    }

    /** Tribuo's trainer, with each row's bias node (the last) one that asks whether to stop. */
    private static final class CancellableTrainer extends LibLinearClassificationTrainer {

        private final Cancellation cancellation;

        CancellableTrainer(Cancellation cancellation) {
            super(new LinearClassificationType(LinearClassificationType.LinearType.L2R_LR), COST, MAX_ITERATIONS,
                    EPSILON, SEED);
            this.cancellation = cancellation;
        }

        @Override
        protected List<Model> trainModels(Parameter parameters, int features, FeatureNode[][] rows,
                                          double[][] outputs) {
            if (cancellation != Cancellation.NEVER) {
                for (FeatureNode[] row : rows) {
                    FeatureNode bias = row[row.length - 1];
                    row[row.length - 1] = new Cancellation.Checked(bias.index, bias.value, cancellation);
                }
            }
            return super.trainModels(parameters, features, rows, outputs);
        }
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
