package ai.convo.contract.common;

/**
 * The one rule for text that enters the system: what PostgreSQL's {@code text} and {@code jsonb} can hold. They hold
 * every Unicode scalar value but U+0000, and a Java string can also carry an unpaired surrogate (from a JSON escape such
 * as {@code \ud800}), which UTF-8 cannot encode: a NUL makes every projection that writes it fail, an unpaired surrogate
 * is silently replaced or refused on the way to the database. Such text is refused where it enters, before any event.
 */
public final class StorableText {

    /** What is allowed, for a problem's detail. */
    public static final String RULE = "text must not contain U+0000 (NUL) or an unpaired surrogate (U+D800 to U+DFFF "
            + "without its pair), which the database cannot store";

    private StorableText() {
    }

    /** The index of the first character that cannot be stored, or -1 when all of it can. */
    public static int firstUnstorable(CharSequence text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return i;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return -1;
    }

    public static boolean isStorable(CharSequence text) {
        return text == null || firstUnstorable(text) < 0;
    }

    /**
     * What is wrong with {@code text}, as the end of a sentence ("holds U+0000 at character 4; text must not ..."), or
     * null when it can be stored. Characters count from 1, in UTF-16 code units as a JSON string counts them.
     */
    public static String problem(CharSequence text) {
        int at = text == null ? -1 : firstUnstorable(text);
        if (at < 0) {
            return null;
        }
        char c = text.charAt(at);
        String what = c == 0 ? "U+0000 (NUL)" : String.format("an unpaired surrogate U+%04X", (int) c);
        return "holds " + what + " at character " + (at + 1) + "; " + RULE;
    }
}
