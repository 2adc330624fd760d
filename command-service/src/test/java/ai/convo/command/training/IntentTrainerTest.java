package ai.convo.command.training;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tribuo.classification.Label;
import org.tribuo.impl.ArrayExample;

class IntentTrainerTest {

    static List<TrainingSet.Example> travel() {
        List<TrainingSet.Example> examples = new ArrayList<>();
        String[][] intents = {
                {"aaaaaaaaaaaaaaaaaaaaaaa1", "Book flight", "book a flight to paris", "I need a plane ticket",
                        "fly me to london tomorrow", "reserve a seat on a flight", "get me on the next plane",
                        "flights to rome please"},
                {"aaaaaaaaaaaaaaaaaaaaaaa2", "Weather", "what is the weather today", "will it rain tomorrow",
                        "how hot is it outside", "weather forecast for berlin", "is it sunny", "do I need an umbrella"},
                {"aaaaaaaaaaaaaaaaaaaaaaa3", "Hotel", "book a hotel room", "I need a room for two nights",
                        "reserve a hotel in paris", "find me a place to stay", "hotel near the station",
                        "a double room please"}};
        for (String[] intent : intents) {
            for (int i = 2; i < intent.length; i++) {
                examples.add(new TrainingSet.Example(intent[0], intent[1], intent[i]));
            }
        }
        return examples;
    }

    @Test
    void sameTrainingSetInAnyOrderTrainsTheSameBytesAndId() {
        // given the same sentences, read in two different orders
        List<TrainingSet.Example> shuffled = new ArrayList<>(travel());
        Collections.reverse(shuffled);
        TrainingSet first = new TrainingSet("en-US", travel());
        TrainingSet second = new TrainingSet("en-US", shuffled);

        // when both are trained
        IntentTrainer.Trained a = IntentTrainer.train(first);
        IntentTrainer.Trained b = IntentTrainer.train(second);

        // then the model ids and bytes are equal
        assertEquals(a.modelId(), b.modelId());
        assertArrayEquals(a.bytes(), b.bytes());
        assertEquals(first.hash(), second.hash());
    }

    @Test
    void anEditChangesTheIdAndUndoingItRestoresIt() {
        List<TrainingSet.Example> edited = new ArrayList<>(travel());
        edited.set(0, new TrainingSet.Example("aaaaaaaaaaaaaaaaaaaaaaa1", "Book flight", "book a flight to oslo"));
        String original = IntentTrainer.modelId(new TrainingSet("en-US", travel()));
        assertNotEquals(original, IntentTrainer.modelId(new TrainingSet("en-US", edited)));
        assertEquals(original, IntentTrainer.modelId(new TrainingSet("en-US", new ArrayList<>(travel()))));
        // the analyser is part of the id
        assertNotEquals(original, IntentTrainer.modelId(new TrainingSet("de-DE", travel())));
    }

    @Test
    void theStoredModelPredictsWhatTribuosModelPredicts() {
        TrainingSet set = new TrainingSet("en-US", travel());
        List<String[]> features = set.examples().stream().map(e -> Features.forLanguage("en-US").of(e.text())).toList();
        IntentTrainer.Fitted fitted = IntentTrainer.fit(set.examples(), features);
        IntentModel stored = IntentTrainer.train(set).model();
        for (String sentence : List.of("book me a flight", "rain in berlin?", "a room in a hotel", "hotel tomorrow")) {
            String[] names = Features.forLanguage("en-US").of(sentence);
            double[] ones = new double[names.length];
            java.util.Arrays.fill(ones, 1.0);
            var tribuo = fitted.tribuo().predict(new ArrayExample<>(new Label("?"), names, ones));
            for (IntentModel.Score score : stored.rank(sentence)) {
                assertEquals(tribuo.getOutputScores().get(score.intentId()).getScore(), score.score(), 1e-6,
                        sentence + " / " + score.intentName());
            }
        }
        assertEquals("aaaaaaaaaaaaaaaaaaaaaaa1", stored.rank("book me a flight to rome").get(0).intentId());
        assertEquals("aaaaaaaaaaaaaaaaaaaaaaa2", stored.rank("is it going to rain").get(0).intentId());
    }

    @Test
    @SuppressWarnings("unchecked")
    void crossValidationNamesAPlantedOverlap() {
        // given a fourth intent whose sentences are the flight intent's, reworded a little
        List<TrainingSet.Example> examples = new ArrayList<>(travel());
        for (String s : List.of("book a flight to madrid", "I need a plane ticket now", "fly me to london today",
                "reserve a seat on a plane", "get me on the next flight", "flights to rome")) {
            examples.add(new TrainingSet.Example("aaaaaaaaaaaaaaaaaaaaaaa4", "Air travel", s));
        }
        TrainingSet set = new TrainingSet("en-US", examples);
        List<Integer> folds = new ArrayList<>();

        // when it is cross-validated
        Map<String, Object> report = CrossValidation.run(set, folds::add);

        // then every fold reported, and the flight intent and the planted one name each other as a strong overlap
        assertEquals(List.of(1, 2, 3, 4, 5), folds);
        assertTrue(strongOverlaps(report, "aaaaaaaaaaaaaaaaaaaaaaa1").contains("Air travel"));
        assertTrue(strongOverlaps(report, "aaaaaaaaaaaaaaaaaaaaaaa4").contains("Book flight"));
        // and the report is itself deterministic
        assertEquals(report, CrossValidation.run(new TrainingSet("en-US", examples), fold -> { }));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> strongOverlaps(Map<String, Object> report, String intentId) {
        Map<String, Object> intent = (Map<String, Object>) ((Map<String, Object>) report.get("intents")).get(intentId);
        return ((List<Map<String, Object>>) intent.get("findings")).stream()
                .filter(f -> f.get("type").equals("strongOverlap"))
                .flatMap(f -> ((List<Object>) f.get("intentNames")).stream()).toList();
    }

    @Test
    void aFlowOverTheWeightBudgetKeepsItsMostFrequentFeaturesOrIsRefused() {
        // given 3,000 features seen once and 2,500 seen twice
        List<String[]> features = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            features.add(new String[] {"once" + i});
        }
        for (int i = 0; i < 2_500; i++) {
            features.add(new String[] {"twice" + i, "twice" + ((i + 1) % 2_500)});
        }
        // when everything fits: every feature is kept
        assertEquals(5_500, IntentTrainer.kept(features, 2).size());
        // when 20,000 intents leave room for 2,000 features: the singletons go first, then the rarest by name order
        java.util.Set<String> kept = IntentTrainer.kept(features, 20_000);
        assertEquals(2_000, kept.size());
        assertTrue(kept.stream().allMatch(f -> f.startsWith("twice")));
        assertEquals(kept, IntentTrainer.kept(features, 20_000));
        // when an intent could keep fewer than MIN_FEATURES: refused, saying how many intents fit
        IntentTrainer.TooLarge refused = org.junit.jupiter.api.Assertions.assertThrows(IntentTrainer.TooLarge.class,
                () -> IntentTrainer.kept(features, 50_000));
        assertTrue(refused.getMessage().contains("at most 40000 intents"), refused.getMessage());
    }

    @Test
    void theSampledOneVsRestForManyIntentsLearnsEachIntentDeterministically() {
        // given a synthetic flow of 50 intents, 40 sentences each: 1,000 negatives sampled of 1,960 per intent
        TrainingSet set = IntentTrainingBench.flow(2_000, 50);
        List<String[]> features = set.examples().stream().map(e -> Features.forLanguage("en-US").of(e.text())).toList();
        // when trained twice
        java.nio.FloatBuffer[] weights = new java.nio.FloatBuffer[2];
        IntentModel[] models = new IntentModel[2];
        for (int run = 0; run < 2; run++) {
            int r = run;
            SampledOneVsRest.train(set.examples(), features, (labels, kept, count) -> {
                weights[r] = java.nio.FloatBuffer.allocate(count);
                models[r] = IntentModel.of(labels, kept, weights[r]);
                return weights[r];
            });
        }
        // then the same weights, and nearly every training sentence ranks its own intent first
        assertEquals(weights[0].clear(), weights[1].clear());
        long right = set.examples().stream().filter(e -> models[0].rank(e.text()).get(0).intentId()
                .equals(e.intentId())).count();
        assertTrue(right > 0.9 * set.examples().size(), right + " of " + set.examples().size());
    }
}
