package ai.convo.command.training;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The features that decided a score: the sentence's features with the largest positive weights towards each intent. */
class IntentModelContributionsTest {

    @Test
    void givenATrainedModel_whenASentenceIsExplained_thenEachIntentsTopFeaturesAreItsOwnWordsLargestFirst() {
        // given
        IntentModel model = IntentModel.read(IntentTrainer.train(new TrainingSet("en-US", IntentTrainerTest.travel()))
                .bytes());

        // when
        Map<String, List<IntentModel.Contribution>> decided = model.contributions("will it rain at the hotel", 20);

        // then weather is decided by rain (among others), the hotel by hotel first; each list positive, largest first
        assertThat(decided).containsOnlyKeys("aaaaaaaaaaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaaaaaaaaaa2",
                "aaaaaaaaaaaaaaaaaaaaaaa3");
        assertThat(decided.get("aaaaaaaaaaaaaaaaaaaaaaa2")).extracting(IntentModel.Contribution::feature)
                .contains("w:rain").doesNotContain("w:hotel");
        assertThat(decided.get("aaaaaaaaaaaaaaaaaaaaaaa3").get(0).feature()).isEqualTo("w:hotel");
        decided.values().forEach(list -> {
            assertThat(list).allSatisfy(c -> assertThat(c.weight()).isPositive());
            assertThat(list).isSortedAccordingTo((a, b) -> Double.compare(b.weight(), a.weight()));
        });
        // and at most top, the largest kept
        Map<String, List<IntentModel.Contribution>> two = model.contributions("will it rain at the hotel", 2);
        two.forEach((intent, list) -> assertThat(list).isEqualTo(decided.get(intent).subList(0,
                Math.min(2, decided.get(intent).size()))));
        // and a sentence of unknown words is decided by none
        assertThat(model.contributions("zzz qqq", 3).values()).allSatisfy(list -> assertThat(list).isEmpty());
    }

    @Test
    void givenATwoIntentModel_whenExplained_thenTheSecondIntentsWeightsAreTheSharedVectorNegated() {
        // given two intents: LibLinear keeps one weight vector for both
        List<TrainingSet.Example> two = IntentTrainerTest.travel().stream()
                .filter(e -> !e.intentId().endsWith("3")).toList();
        IntentModel model = IntentModel.read(IntentTrainer.train(new TrainingSet("en-US", two)).bytes());

        // when
        Map<String, List<IntentModel.Contribution>> decided = model.contributions("a flight in the rain", 5);

        // then each word pushes one way only: flight to the flight intent, rain to the weather intent
        assertThat(decided.get("aaaaaaaaaaaaaaaaaaaaaaa1")).extracting(IntentModel.Contribution::feature)
                .contains("w:flight").doesNotContain("w:rain");
        assertThat(decided.get("aaaaaaaaaaaaaaaaaaaaaaa2")).extracting(IntentModel.Contribution::feature)
                .contains("w:rain").doesNotContain("w:flight");
    }
}
