package ai.convo.contract.intent;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Which locale an intent answer describes. Given a preferred locale (the project's primary locale when the
 * client names none): the preferred locale if the intent has sentences in it, else the first locale of the
 * preferred locale's fallback chain in which it has sentences, else the project's primary locale.
 * Both services apply this one rule.
 */
public final class IntentLocales {

    /** A resolved locale and the intent's number of sentences in it. */
    public record Resolved(String localeId, long sentenceCount) {
    }

    private IntentLocales() {
    }

    /**
     * The preferred locale followed by its fallbacks, in order; {@code fallbackOf} maps a locale to its
     * fallback (absent or null: none). Stops at a repeated locale, so a damaged chain cannot loop.
     */
    public static List<String> chain(String preferred, Map<String, String> fallbackOf) {
        List<String> chain = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String locale = preferred; locale != null && seen.add(locale); locale = fallbackOf.get(locale)) {
            chain.add(locale);
        }
        return chain;
    }

    public static Resolved resolve(List<String> chain, String primary, ToLongFunction<String> sentencesIn) {
        for (String locale : chain) {
            long count = sentencesIn.applyAsLong(locale);
            if (count > 0) {
                return new Resolved(locale, count);
            }
        }
        return new Resolved(primary, primary == null ? 0 : sentencesIn.applyAsLong(primary));
    }
}
