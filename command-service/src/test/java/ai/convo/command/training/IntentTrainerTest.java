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
    void theSampledOneVsRestForManyIntentsLearnsEachIntentDeterministically() {
        // given a synthetic flow of 50 intents, 40 sentences each: 1,000 negatives sampled of 1,960 per intent
        TrainingSet set = IntentTrainingBench.flow(2_000, 50);
        List<String[]> features = set.examples().stream().map(e -> Features.forLanguage("en-US").of(e.text())).toList();
        // when trained twice
        IntentModel.Sparse first = SampledOneVsRest.train(set.examples(), features, Cancellation.NEVER);
        IntentModel.Sparse second = SampledOneVsRest.train(set.examples(), features, Cancellation.NEVER);
        // then the same weights, and nearly every training sentence ranks its own intent first
        assertArrayEquals(first.offsets(), second.offsets());
        assertArrayEquals(first.classes(), second.classes());
        assertArrayEquals(first.weights(), second.weights());
        IntentModel model = IntentModel.of(first);
        long right = set.examples().stream().filter(e -> model.rank(e.text()).get(0).intentId()
                .equals(e.intentId())).count();
        assertTrue(right > 0.9 * set.examples().size(), right + " of " + set.examples().size());
    }

    @Test
    void theSparseTrainerKeepsEveryIntentsOwnWordsAndItsStoredFormPredictsAlike() {
        // given 250 intents of 4 sentences, each with 8 topic words of its own (2,000 in all) beside shared ones
        TrainingSet set = IntentTrainingBench.flow(1_000, 250);
        List<String[]> features = set.examples().stream().map(e -> Features.forLanguage("en-US").of(e.text())).toList();

        // when trained sparsely and stored
        IntentModel.Sparse sparse = SampledOneVsRest.train(set.examples(), features, Cancellation.NEVER);
        byte[] bytes = IntentModel.write(IntentTrainer.config("en-US"), "en-US", sparse);
        IntentTrainer.Trained trained = new IntentTrainer.Trained("test", bytes, IntentModel.read(bytes));

        // then the stored form is the sparse one, with far fewer weights than features x intents
        String header = new String(bytes, 0, Math.min(bytes.length, 1 << 20), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(header.contains("\nsparse "), "a sparse model");
        assertTrue((long) sparse.weights().length * 4 < (long) sparse.features().size() * 250,
                sparse.weights().length + " weights for " + sparse.features().size() + " features");
        // and it ranks as the unstored model does (given the features: a fold's model has no analyser of its own)
        IntentModel unstored = IntentModel.of(sparse);
        for (int i = 0; i < 50; i++) {
            assertEquals(unstored.rank(features.get(i)), trained.model().rank(set.examples().get(i).text()));
        }
        // and every intent's own topic words that its sentences used still name it: a sentence of one of them ranks
        // its intent first
        java.util.Map<String, java.util.Set<String>> topicWords = new java.util.HashMap<>();
        for (TrainingSet.Example e : set.examples()) {
            int intent = Integer.parseInt(e.intentId());
            for (String word : e.text().split(" ")) {
                int number = Integer.parseInt(word.substring(1), 36);
                if (number >= 5_000 + intent * 8 && number < 5_000 + intent * 8 + 8) {
                    topicWords.computeIfAbsent(e.intentId(), k -> new java.util.TreeSet<>()).add(word);
                }
            }
        }
        long right = 0;
        long asked = 0;
        for (var intent : topicWords.entrySet()) {
            for (String word : intent.getValue()) {
                asked++;
                right += trained.model().rank(word).get(0).intentId().equals(intent.getKey()) ? 1 : 0;
            }
        }
        assertTrue(asked > 1_000, asked + " topic words");
        assertTrue(right > 0.97 * asked, right + " of " + asked + " topic words rank their intent first");
    }

    @Test
    void aFlowTooManyIntentsForTheSparseBudgetIsRefusedSayingHowManyFit() {
        // given more intents than the sparse budget keeps MIN_PER_INTENT weights for
        int intents = (int) (SampledOneVsRest.WEIGHT_BUDGET / SampledOneVsRest.MIN_PER_INTENT) + 1;
        List<TrainingSet.Example> examples = new ArrayList<>(intents);
        for (int i = 0; i < intents; i++) {
            examples.add(new TrainingSet.Example(String.format("%024d", i), "Intent " + i, "w" + i));
        }
        List<String[]> features = examples.stream().map(e -> new String[] {"w:" + e.text()}).toList();
        // when trained: refused before any solve, naming the limit
        IntentTrainer.TooLarge refused = org.junit.jupiter.api.Assertions.assertThrows(IntentTrainer.TooLarge.class,
                () -> SampledOneVsRest.train(examples, features, Cancellation.NEVER));
        assertTrue(refused.getMessage().contains("at most " + (intents - 1) + " intents"), refused.getMessage());
    }

    @Test
    void aCancelIsNoticedInsideLibLinearsSolveWithinASecond() {
        for (TrainingSet set : List.of(IntentTrainingBench.flow(10_000, 100), IntentTrainingBench.flow(20_000, 200))) {
            // given a training (dense, then sparse) whose cancel is requested at the third time the solver asks
            assertEquals(set.intentIds().size() == 200, IntentTrainer.sparse(set.examples(), set.examples().stream()
                    .map(e -> Features.forLanguage("en-US").of(e.text())).toList()));
            long[] requested = {0};
            int[] asked = {0};
            Cancellation cancellation = Cancellation.of(() -> {
                if (++asked[0] == 3) {
                    requested[0] = System.nanoTime();
                }
                return requested[0] != 0;
            });

            // when it runs
            org.junit.jupiter.api.Assertions.assertThrows(Cancellation.Cancelled.class,
                    () -> IntentTrainer.train(set, cancellation));

            // then it stopped within a second of the request (the check is asked at most every 250 ms)
            long stoppedAfter = (System.nanoTime() - requested[0]) / 1_000_000;
            assertTrue(requested[0] != 0, "the cancel was asked for");
            assertTrue(stoppedAfter < 1_000, "stopped " + stoppedAfter + " ms after the request");
        }
    }
}
