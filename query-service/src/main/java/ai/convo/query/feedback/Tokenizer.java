package ai.convo.query.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tokenisation shared by every feedback measure: the sentence is lower-cased with {@link Locale#ROOT}, then
 * split on every code point that is not a Unicode letter or digit ({@link Character#isLetterOrDigit(int)});
 * empty tokens are dropped.
 *
 * <p>Consequences worth knowing: umlauts and ß are letters ({@code "Größe ändern!"} gives {@code größe, ändern});
 * CJK ideographs and kana are letters, so an unpunctuated Japanese sentence is one token while {@code 、} and
 * {@code 。} split; combining marks (category M, e.g. a decomposed umlaut or Devanagari vowel signs) are neither
 * letters nor digits and therefore split; apostrophes split ({@code "don't"} gives {@code don, t}).
 */
final class Tokenizer {

    private Tokenizer() {
    }

    /** The tokens of one sentence, in order, duplicates kept. */
    static List<String> tokens(String sentence) {
        String lower = sentence.toLowerCase(Locale.ROOT);
        List<String> tokens = new ArrayList<>();
        int start = -1;
        int i = 0;
        while (i < lower.length()) {
            int cp = lower.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                if (start < 0) {
                    start = i;
                }
            } else if (start >= 0) {
                tokens.add(lower.substring(start, i));
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            tokens.add(lower.substring(start));
        }
        return tokens;
    }
}
