package ai.convo.command.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.training.TrainingSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A restore's hash of the set a flow will have is training's own (TrainingSet.hash), whose format is frozen. */
class RestoredTrainingSetTest {

    @Test
    void givenAFlowsContent_whenTheRestoredSetIsHashed_thenItIsTheTrainingSetsHash() {
        // given: two enabled intents (one name not NFC, texts whose byte order differs from char order), one disabled,
        // sentences in two locales
        SnapshotContent.Intent weather = intent("w", "Wetter\u0308", false, List.of(
                new SnapshotContent.Sentence("en", "rain \uD83C\uDF27 today"), new SnapshotContent.Sentence("en", "r\u00e4in"),
                new SnapshotContent.Sentence("de", "regen")));
        SnapshotContent.Intent hotel = intent("h", "Hotel", false, List.of(new SnapshotContent.Sentence("en", "a room"),
                new SnapshotContent.Sentence("en", "\uFF21 room")));
        SnapshotContent.Intent off = intent("o", "Off", true, List.of(new SnapshotContent.Sentence("en", "never")));
        SnapshotContent.Flow flow = new SnapshotContent.Flow("f", "F", "", List.of(), List.of(weather, hotel, off),
                List.of(), List.of());
        Map<String, String> ids = Map.of("w", "id-weather", "h", "id-hotel", "o", "id-off");

        // when
        String restored = RestoredTrainingSet.hash(flow, "en", ids);

        // then
        TrainingSet set = new TrainingSet("en", List.of(
                new TrainingSet.Example("id-hotel", "Hotel", "\uFF21 room"),
                new TrainingSet.Example("id-weather", "Wetter\u0308", "r\u00e4in"),
                new TrainingSet.Example("id-hotel", "Hotel", "a room"),
                new TrainingSet.Example("id-weather", "Wetter\u0308", "rain \uD83C\uDF27 today")));
        assertThat(restored).isEqualTo(set.hash());
        assertThat(RestoredTrainingSet.hash(flow, "de", ids)).isEqualTo(new TrainingSet("de", List.of(
                new TrainingSet.Example("id-weather", "Wetter\u0308", "regen"))).hash()).isNotEqualTo(restored);
    }

    private static SnapshotContent.Intent intent(String reference, String name, boolean disabled,
                                                 List<SnapshotContent.Sentence> sentences) {
        return new SnapshotContent.Intent(reference, name, "", List.of(), false, disabled, null, null, List.of(), null,
                List.of(), Map.of(), false, "parent", sentences);
    }
}
