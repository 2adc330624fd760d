package ai.convo.command.training;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntConsumer;

/**
 * The feedback report of a "full" training: a seeded k-fold cross-validation. Every sentence is predicted by the
 * model trained on the other folds (out of fold); from those predictions come the flow's accuracy and macro F1,
 * each intent's F1 and overlaps (the confusion matrix: how often its sentences went to another intent, and back),
 * and each sentence's top intent, runner-up and true intent, in the client's {@code feedbackReport} fields.
 */
final class CrossValidation {

    static final int FOLDS = 5;
    /** An intent with fewer sentences gets fewSentences (and counts as a low-data intent of the flow). */
    static final int FEW_SENTENCES = 5;
    /**
     * Share of an intent's sentences predicted as another intent (either way round) for strong / some overlap; a
     * strong one also needs two such sentences, so one stray sentence of a small intent is not called strong.
     */
    static final double STRONG_OVERLAP = 0.2;
    static final double SOME_OVERLAP = 0.05;

    private CrossValidation() {
    }

    /** The out-of-fold prediction of one sentence. */
    record Prediction(int example, List<IntentModel.Score> ranked) {
    }

    /**
     * The report as stored ({@code intent_model.report}): {@code flow}, {@code intents} (id to report) and
     * {@code sentences} (intentId, text, report) in the training set's order. {@code foldDone} is called after each
     * fold with its number (1-based): the task's progress, and where a cancel is noticed.
     */
    static Map<String, Object> run(TrainingSet set, IntConsumer foldDone) {
        return run(set, foldDone, Cancellation.NEVER);
    }

    static Map<String, Object> run(TrainingSet set, IntConsumer foldDone, Cancellation cancellation) {
        List<TrainingSet.Example> examples = set.examples();
        Features features = Features.forLanguage(set.language());
        List<String[]> featureNames = new ArrayList<>(examples.size());
        examples.forEach(e -> featureNames.add(features.of(e.text())));
        int folds = Math.min(FOLDS, examples.size());
        List<Integer> shuffled = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            shuffled.add(i);
        }
        Collections.shuffle(shuffled, new Random(IntentTrainer.SEED)); // a specified algorithm: same on every JVM
        int[] foldOf = new int[examples.size()];
        for (int i = 0; i < shuffled.size(); i++) {
            foldOf[shuffled.get(i)] = i % folds;
        }
        Prediction[] predictions = new Prediction[examples.size()];
        for (int fold = 0; fold < folds; fold++) {
            List<TrainingSet.Example> train = new ArrayList<>();
            List<String[]> trainFeatures = new ArrayList<>();
            for (int i = 0; i < examples.size(); i++) {
                if (foldOf[i] != fold) {
                    train.add(examples.get(i));
                    trainFeatures.add(featureNames.get(i));
                }
            }
            IntentModel model = foldModel(train, trainFeatures, cancellation);
            for (int i = 0; i < examples.size(); i++) {
                if (foldOf[i] == fold) {
                    predictions[i] = new Prediction(i, model == null ? List.of() : model.rank(featureNames.get(i)));
                }
            }
            foldDone.accept(fold + 1);
        }
        return report(examples, predictions);
    }

    private static IntentModel foldModel(List<TrainingSet.Example> train, List<String[]> trainFeatures,
                                         Cancellation cancellation) {
        if (train.stream().map(TrainingSet.Example::intentId).distinct().count() < 2) {
            return null; // one intent left in the other folds: nothing to tell apart
        }
        return IntentTrainer.unstored(train, trainFeatures, cancellation);
    }

    private static Map<String, Object> report(List<TrainingSet.Example> examples, Prediction[] predictions) {
        Map<String, String> names = new TreeMap<>();
        Map<String, Integer> support = new HashMap<>();
        for (TrainingSet.Example e : examples) {
            names.put(e.intentId(), e.intentName());
            support.merge(e.intentId(), 1, Integer::sum);
        }
        Map<String, Integer> truePositives = new HashMap<>();
        Map<String, Integer> predictedAs = new HashMap<>();
        Map<String, Map<String, Integer>> confusion = new HashMap<>();
        int correct = 0;
        List<Map<String, Object>> sentences = new ArrayList<>(examples.size());
        for (int i = 0; i < examples.size(); i++) {
            TrainingSet.Example example = examples.get(i);
            List<IntentModel.Score> ranked = predictions[i].ranked();
            IntentModel.Score top = ranked.isEmpty() ? null : ranked.get(0);
            if (top != null) {
                predictedAs.merge(top.intentId(), 1, Integer::sum);
                if (top.intentId().equals(example.intentId())) {
                    correct++;
                    truePositives.merge(example.intentId(), 1, Integer::sum);
                } else {
                    confusion.computeIfAbsent(example.intentId(), k -> new HashMap<>())
                            .merge(top.intentId(), 1, Integer::sum);
                }
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("intentId", example.intentId());
            entry.put("text", example.text());
            entry.put("report", sentenceReport(example, ranked));
            sentences.add(entry);
        }
        Map<String, Object> intents = new LinkedHashMap<>();
        double fSum = 0;
        List<String> lowData = new ArrayList<>();
        for (String intentId : names.keySet()) {
            int tp = truePositives.getOrDefault(intentId, 0);
            int fp = predictedAs.getOrDefault(intentId, 0) - tp;
            int fn = support.get(intentId) - tp;
            double f1 = tp == 0 ? 0 : 2.0 * tp / (2.0 * tp + fp + fn);
            fSum += f1;
            List<Map<String, Object>> findings = new ArrayList<>();
            findings.add(Map.of("type", f1 < 0.5 ? "poorFScore" : f1 < 0.8 ? "fairFScore" : "goodFScore"));
            if (support.get(intentId) < FEW_SENTENCES) {
                findings.add(Map.of("type", "fewSentences"));
                lowData.add(intentId);
            }
            if (names.size() == 1) {
                findings.add(Map.of("type", "noSiblings"));
            }
            List<String> strong = new ArrayList<>();
            List<String> some = new ArrayList<>();
            for (String other : names.keySet()) {
                if (other.equals(intentId)) {
                    continue;
                }
                int away = confusion.getOrDefault(intentId, Map.of()).getOrDefault(other, 0);
                int back = confusion.getOrDefault(other, Map.of()).getOrDefault(intentId, 0);
                double share = Math.max(away / (double) support.get(intentId), back / (double) support.get(other));
                if (share >= STRONG_OVERLAP && away + back >= 2) {
                    strong.add(other);
                } else if (share >= SOME_OVERLAP) {
                    some.add(other);
                }
            }
            // sentences scattered over other intents, none of them an overlap: the intent says many things
            if (support.get(intentId) >= 3 && tp * 2 < support.get(intentId) && strong.isEmpty()) {
                findings.add(Map.of("type", "unclearIntent"));
            }
            overlap(findings, "strongOverlap", strong, names);
            overlap(findings, "someOverlap", some, names);
            intents.put(intentId, Map.of("findings", findings, "info", Map.of("fScore", round(f1))));
        }
        double accuracy = examples.isEmpty() ? 0 : correct / (double) examples.size();
        double fScore = names.isEmpty() ? 0 : fSum / names.size();
        List<Map<String, Object>> flowFindings = new ArrayList<>();
        flowFindings.add(Map.of("type", accuracy < 0.5 ? "poorAccuracy" : accuracy < 0.8 ? "fairAccuracy" : "goodAccuracy"));
        if (!lowData.isEmpty()) {
            List<Map<String, Object>> listed = new ArrayList<>();
            lowData.forEach(id -> listed.add(Map.of("intentId", id, "intentName", names.get(id))));
            flowFindings.add(Map.of("type", "lowDataIntents", "intents", listed));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("flow", Map.of("findings", flowFindings,
                "info", Map.of("accuracy", round(accuracy), "fScore", round(fScore))));
        report.put("intents", intents);
        report.put("sentences", sentences);
        return report;
    }

    private static void overlap(List<Map<String, Object>> findings, String type, List<String> partners,
                                Map<String, String> names) {
        if (!partners.isEmpty()) {
            findings.add(Map.of("type", type, "intentIds", partners,
                    "intentNames", partners.stream().map(names::get).toList()));
        }
    }

    /** topIntent / runnerUp / trueIntent with scores; findings wrongIntent, overlap and the score's light. */
    private static Map<String, Object> sentenceReport(TrainingSet.Example example, List<IntentModel.Score> ranked) {
        Map<String, Object> info = new LinkedHashMap<>();
        List<Map<String, Object>> findings = new ArrayList<>();
        IntentModel.Score top = ranked.isEmpty() ? null : ranked.get(0);
        IntentModel.Score runnerUp = ranked.size() > 1 ? ranked.get(1) : null;
        double trueScore = ranked.stream().filter(s -> s.intentId().equals(example.intentId()))
                .mapToDouble(IntentModel.Score::score).findFirst().orElse(0);
        info.put("topIntentId", top == null ? null : top.intentId());
        info.put("topIntentName", top == null ? null : top.intentName());
        info.put("topScore", top == null ? 0 : round(top.score()));
        info.put("runnerUpIntentId", runnerUp == null ? null : runnerUp.intentId());
        info.put("runnerUpIntentName", runnerUp == null ? null : runnerUp.intentName());
        info.put("runnerUpScore", runnerUp == null ? 0 : round(runnerUp.score()));
        info.put("trueIntentId", example.intentId());
        info.put("trueIntentName", example.intentName());
        info.put("trueScore", round(trueScore));
        info.put("difference", top == null ? 0 : round(top.score() - (runnerUp == null ? 0 : runnerUp.score())));
        if (top == null || !top.intentId().equals(example.intentId())) {
            findings.add(Map.of("type", "wrongIntent"));
        } else if (runnerUp != null && top.score() - runnerUp.score() < 0.1) {
            findings.add(Map.of("type", "overlap"));
        }
        findings.add(Map.of("type", trueScore < 0.4 ? "poorScore" : trueScore < 0.7 ? "fairScore" : "goodScore"));
        return Map.of("findings", findings, "info", info);
    }

    static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
