package ai.convo.command.training;

import de.bwaldvogel.liblinear.Model;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trained model in its stored form: the configuration, the labels (intent id and name in LibLinear's class
 * order), the feature names (by the trainer's feature number) and LibLinear's weights as 32-bit floats (ample for
 * probabilities; half the memory of doubles), either dense (features x classes) or sparse (per feature, the classes
 * it has a weight for: what a flow of thousands of intents needs, where each intent uses few of the features). The
 * bytes are a function of the training set and the configuration alone (no time, host or provenance), so equal
 * inputs give equal bytes; predictions are made from them, on any replica, reading the weights in place (a view of
 * the stored bytes, never a copy).
 */
final class IntentModel {

    private static final String MAGIC = "convo-intent-model 2";

    /** A ranked answer: the intent, its name and its probability. */
    record Score(String intentId, String intentName, double score) {
    }

    private final String config;
    private final String language;
    /** Intent id and name, in LibLinear's class order. */
    private final List<String[]> labels;
    private final Map<String, Integer> features;
    /**
     * Dense (no {@link #offsets}): LibLinear's layout, feature f (1-based, the bias last) and class c at
     * {@code (f - 1) * width + c}. Sparse: feature f's weights at {@code offsets[f - 1] .. offsets[f] - 1}, each for
     * class {@code classes[k]}.
     */
    private final FloatBuffer weights;
    private final IntBuffer offsets;
    private final IntBuffer classes;
    private final int width;
    private final Features analyser;

    private IntentModel(String config, String language, List<String[]> labels, Map<String, Integer> features,
                        FloatBuffer weights) {
        this(config, language, labels, features, weights, null, null);
    }

    private IntentModel(String config, String language, List<String[]> labels, Map<String, Integer> features,
                        FloatBuffer weights, IntBuffer offsets, IntBuffer classes) {
        this.config = config;
        this.language = language;
        this.labels = labels;
        this.features = features;
        this.weights = weights;
        this.offsets = offsets;
        this.classes = classes;
        this.width = labels.size() == 2 && offsets == null ? 1 : labels.size();
        this.analyser = Features.forLanguage(language);
    }

    /**
     * Sparse weights, by feature (1-based, the bias last, which has every class): feature f's weights are
     * {@code weights[offsets[f - 1] .. offsets[f] - 1]}, for the classes {@code classes[..]} (ascending).
     */
    record Sparse(List<String[]> labels, List<String> features, int[] offsets, int[] classes, float[] weights) {
    }

    /**
     * The sparse stored form: the same header, ending {@code sparse <count>} instead of {@code weights <count>}, then
     * the offsets (one more than the rows) and classes as big-endian ints and the weights as big-endian floats.
     */
    static byte[] write(String config, String language, Sparse sparse) {
        String header = header(config, language, sparse.labels(), sparse.features()) + "sparse " + sparse.weights().length
                + '\n';
        byte[] head = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(head.length + (long) sparse.offsets().length
                * Integer.BYTES + (long) sparse.weights().length * (Integer.BYTES + Float.BYTES)));
        buffer.put(head);
        buffer.asIntBuffer().put(sparse.offsets()).put(sparse.classes());
        buffer.position(buffer.position() + (sparse.offsets().length + sparse.classes().length) * Integer.BYTES);
        buffer.asFloatBuffer().put(sparse.weights());
        return buffer.array();
    }

    /** A model to predict with from sparse weights that are never stored (a cross-validation fold's). */
    static IntentModel of(Sparse sparse) {
        return new IntentModel("fold", "", sparse.labels(), numbered(sparse.features()),
                FloatBuffer.wrap(sparse.weights()), IntBuffer.wrap(sparse.offsets()), IntBuffer.wrap(sparse.classes()));
    }

    private static Map<String, Integer> numbered(List<String> featureNames) {
        Map<String, Integer> features = new HashMap<>(featureNames.size() * 2);
        for (int i = 0; i < featureNames.size(); i++) {
            features.put(featureNames.get(i), i);
        }
        return features;
    }

    private static String header(String config, String language, List<String[]> labels, List<String> featureNames) {
        StringBuilder out = new StringBuilder(MAGIC).append('\n');
        out.append("config ").append(config).append('\n');
        out.append("language ").append(language).append('\n');
        out.append("labels ").append(labels.size()).append('\n');
        for (String[] intent : labels) {
            out.append(intent[0]).append('\t').append(oneLine(intent[1])).append('\n');
        }
        out.append("features ").append(featureNames.size()).append('\n');
        featureNames.forEach(f -> out.append(f).append('\n'));
        return out.toString();
    }

    /**
     * The stored form: a UTF-8 header (config, labels, features), then the weights as big-endian floats, read one
     * by one from LibLinear's model into the output (its own copy, getFeatureWeights, is never made).
     */
    static byte[] write(String config, String language, Map<Integer, String[]> labels, List<String> featureNames,
                        Model model) {
        List<String[]> ordered = new ArrayList<>();
        for (int label : model.getLabels()) {
            ordered.add(labels.get(label));
        }
        int width = widthOf(model);
        long count = (long) rowsOf(model) * width;
        String out = header(config, language, ordered, featureNames) + "weights " + count + '\n';
        byte[] header = out.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(header.length + count * Float.BYTES));
        buffer.put(header);
        putWeights(model, width, buffer.asFloatBuffer());
        return buffer.array();
    }

    /** A model to predict with that is never stored (a cross-validation fold's): the weights as floats, no header. */
    static IntentModel fitted(Map<Integer, String[]> labels, List<String> featureNames, Model model) {
        int width = widthOf(model);
        FloatBuffer weights = FloatBuffer.allocate(Math.toIntExact((long) rowsOf(model) * width));
        putWeights(model, width, weights);
        List<String[]> ordered = new ArrayList<>();
        for (int label : model.getLabels()) {
            ordered.add(labels.get(label));
        }
        Map<String, Integer> features = new HashMap<>(featureNames.size() * 2);
        for (int i = 0; i < featureNames.size(); i++) {
            features.put(featureNames.get(i), i);
        }
        return new IntentModel("fold", "", ordered, features, weights.clear());
    }

    private static int widthOf(Model model) {
        return model.getNrClass() == 2 ? 1 : model.getNrClass();
    }

    /** LibLinear's rows: one per feature, and one for its bias term when it has one. */
    private static int rowsOf(Model model) {
        return model.getNrFeature() + (model.getBias() >= 0 ? 1 : 0);
    }

    /**
     * LibLinear's weights in its layout; two classes share one vector (the first class's). Its bias term (Tribuo
     * trains with bias 1) is the last row; LibLinear gives it scaled by the bias, so it is divided back.
     */
    private static void putWeights(Model model, int width, FloatBuffer out) {
        for (int f = 1; f <= model.getNrFeature(); f++) {
            for (int c = 0; c < width; c++) {
                out.put((float) model.getDecfunCoef(f, c));
            }
        }
        if (model.getBias() >= 0) {
            for (int c = 0; c < width; c++) {
                out.put((float) (model.getBias() == 0 ? 0 : model.getDecfunBias(c) / model.getBias()));
            }
        }
    }

    static IntentModel read(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (!MAGIC.equals(line(in))) {
            throw new IllegalArgumentException("not an intent model");
        }
        String config = line(in).substring("config ".length());
        String language = line(in).substring("language ".length());
        int labelCount = Integer.parseInt(line(in).substring("labels ".length()));
        List<String[]> labels = new ArrayList<>(labelCount);
        for (int i = 0; i < labelCount; i++) {
            labels.add(line(in).split("\t", 2));
        }
        int featureCount = Integer.parseInt(line(in).substring("features ".length()));
        Map<String, Integer> features = new HashMap<>(featureCount * 2);
        for (int i = 0; i < featureCount; i++) {
            features.put(line(in), i);
        }
        String layout = line(in);
        if (layout.startsWith("sparse ")) {
            int count = Integer.parseInt(layout.substring("sparse ".length()));
            int rows = featureCount + 1;
            if (in.remaining() != (long) (rows + 1) * Integer.BYTES + (long) count * (Integer.BYTES + Float.BYTES)) {
                throw new IllegalArgumentException("intent model truncated: " + in.remaining() + " bytes for " + count
                        + " sparse weights");
            }
            IntBuffer offsets = in.slice().asIntBuffer().limit(rows + 1).slice();
            in.position(in.position() + (rows + 1) * Integer.BYTES);
            IntBuffer classes = in.slice().asIntBuffer().limit(count).slice();
            in.position(in.position() + count * Integer.BYTES);
            return new IntentModel(config, language, labels, features, in.slice().asFloatBuffer(), offsets, classes);
        }
        int count = Integer.parseInt(layout.substring("weights ".length()));
        FloatBuffer weights = in.slice().asFloatBuffer();
        if (weights.remaining() != count) {
            throw new IllegalArgumentException("intent model truncated: " + weights.remaining() + " of " + count
                    + " weights");
        }
        return new IntentModel(config, language, labels, features, weights);
    }

    private static String line(ByteBuffer in) {
        int start = in.position();
        while (in.get() != '\n') {
            // to the end of the line
        }
        return new String(in.array(), start, in.position() - start - 1, StandardCharsets.UTF_8);
    }

    String config() {
        return config;
    }

    String language() {
        return language;
    }

    /** Every intent of the model, ranked by its probability for the sentence (ties by intent id). */
    List<Score> rank(String sentence) {
        return rank(analyser.of(sentence));
    }

    /**
     * LibLinear's logistic-regression probabilities (its predictProbability): a sigmoid of each class's decision
     * value, normalised over the classes; two classes share one weight vector.
     */
    List<Score> rank(String[] featureNames) {
        int classes = labels.size();
        double[] decision = new double[width];
        for (String name : featureNames) {
            Integer id = features.get(name);
            if (id != null) {
                add(decision, id);
            }
        }
        // Tribuo's convention (LibLinearTrainer.exampleToNodes): the bias is one more feature, always 1
        add(decision, features.size());
        double[] probabilities = new double[classes];
        if (width == 1) {
            probabilities[0] = 1 / (1 + Math.exp(-decision[0]));
            probabilities[1] = 1 - probabilities[0];
        } else {
            double sum = 0;
            for (int c = 0; c < classes; c++) {
                probabilities[c] = 1 / (1 + Math.exp(-decision[c]));
                sum += probabilities[c];
            }
            for (int c = 0; c < classes; c++) {
                probabilities[c] /= sum;
            }
        }
        List<Score> scores = new ArrayList<>(classes);
        for (int c = 0; c < classes; c++) {
            scores.add(new Score(labels.get(c)[0], labels.get(c)[1], probabilities[c]));
        }
        scores.sort(Comparator.comparingDouble(Score::score).reversed().thenComparing(Score::intentId));
        return scores;
    }

    private void add(double[] decision, int feature) {
        if (offsets != null) {
            for (int k = offsets.get(feature), end = offsets.get(feature + 1); k < end; k++) {
                decision[classes.get(k)] += weights.get(k);
            }
            return;
        }
        int base = feature * width;
        if (base + width > weights.limit()) {
            return;
        }
        for (int c = 0; c < width; c++) {
            decision[c] += weights.get(base + c);
        }
    }

    /** A feature of a sentence ({@code w:} a word, {@code b:} a pair of words) and its weight towards an intent. */
    record Contribution(String feature, double weight) {
    }

    /**
     * Per intent id, the sentence's features that pushed the intent's decision value up most (positive weights,
     * largest first, at most {@code top}): what decided its score. Two classes share one vector (the second's is
     * the first's negated).
     */
    Map<String, List<Contribution>> contributions(String sentence, int top) {
        List<List<Contribution>> byClass = new ArrayList<>();
        labels.forEach(label -> byClass.add(new ArrayList<>()));
        for (String name : analyser.of(sentence)) {
            Integer id = features.get(name);
            if (id == null) {
                continue;
            }
            for (int c = 0; c < labels.size(); c++) {
                double weight = width == 1 ? (c == 0 ? 1 : -1) * weight(id, 0) : weight(id, c);
                if (weight > 0) {
                    byClass.get(c).add(new Contribution(name, weight));
                }
            }
        }
        Map<String, List<Contribution>> out = new HashMap<>();
        for (int c = 0; c < labels.size(); c++) {
            out.put(labels.get(c)[0], byClass.get(c).stream().sorted(Comparator.comparingDouble(Contribution::weight)
                    .reversed().thenComparing(Contribution::feature)).limit(top).toList());
        }
        return out;
    }

    private double weight(int feature, int c) {
        if (offsets != null) {
            for (int k = offsets.get(feature), end = offsets.get(feature + 1); k < end; k++) {
                if (classes.get(k) == c) {
                    return weights.get(k);
                }
            }
            return 0;
        }
        int at = feature * width + c;
        return at < weights.limit() ? weights.get(at) : 0;
    }

    /** Intent id to name, for every intent the model knows. */
    Map<String, String> intents() {
        Map<String, String> out = new LinkedHashMap<>();
        labels.stream().sorted(Comparator.comparing(l -> l[0])).forEach(l -> out.put(l[0], l[1]));
        return out;
    }

    private static String oneLine(String name) {
        return name.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    }
}
