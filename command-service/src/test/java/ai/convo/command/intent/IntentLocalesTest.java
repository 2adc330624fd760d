package ai.convo.command.intent;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.intent.IntentLocales;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The localeReference rule both services apply. */
class IntentLocalesTest {

    static final Map<String, String> FALLBACKS = Map.of("fr", "de", "de", "en");

    @Test
    void givenAFallbackChain_whenBuildingIt_thenThePreferredLocaleComesFirstThenItsFallbacksInOrder() {
        // given / when
        List<String> chain = IntentLocales.chain("fr", FALLBACKS);
        // then
        assertThat(chain).containsExactly("fr", "de", "en");
    }

    @Test
    void givenADamagedChainWithACycle_whenBuildingIt_thenItStopsAtTheRepeatedLocale() {
        // given
        Map<String, String> looping = new HashMap<>(Map.of("a", "b", "b", "a"));
        // when / then
        assertThat(IntentLocales.chain("a", looping)).containsExactly("a", "b");
        assertThat(IntentLocales.chain(null, looping)).isEmpty();
    }

    @Test
    void givenSentencesInThePreferredLocale_whenResolving_thenThePreferredLocaleAndItsCount() {
        // given
        Map<String, Long> counts = Map.of("fr", 2L, "de", 5L);
        // when / then
        assertThat(IntentLocales.resolve(List.of("fr", "de", "en"), "en", l -> counts.getOrDefault(l, 0L)))
                .isEqualTo(new IntentLocales.Resolved("fr", 2));
    }

    @Test
    void givenNoSentencesInThePreferredLocale_whenResolving_thenTheFirstFallbackWithSentences() {
        // given
        Map<String, Long> counts = Map.of("en", 3L);
        // when / then
        assertThat(IntentLocales.resolve(List.of("fr", "de", "en"), "zz", l -> counts.getOrDefault(l, 0L)))
                .isEqualTo(new IntentLocales.Resolved("en", 3));
    }

    @Test
    void givenNoSentencesAlongTheChain_whenResolving_thenThePrimaryLocaleWithItsCount() {
        // given
        Map<String, Long> counts = Map.of("pt", 7L);
        // when / then
        assertThat(IntentLocales.resolve(List.of("fr", "de"), "pt", l -> counts.getOrDefault(l, 0L)))
                .isEqualTo(new IntentLocales.Resolved("pt", 7));
        assertThat(IntentLocales.resolve(List.of("fr"), "en", l -> 0L)).isEqualTo(new IntentLocales.Resolved("en", 0));
    }
}
