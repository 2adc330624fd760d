package ai.convo.http.param;

/**
 * The one parser of the numbers and positions a client sends (query parameters, headers, tokens): ASCII digits only.
 * {@link Long#parseLong} also takes a sign and the digits of every script ({@code ١} is 1), so "from=%D9%A1" read as
 * position 1; nothing a client sends is parsed any other way.
 */
public final class WholeNumbers {

    /** 18 digits always fit in a long; no position, limit or time of this API comes near. */
    public static final int MAX_DIGITS = 18;

    private WholeNumbers() {
    }

    /** {@code text} as a number when it is 1 to 18 ASCII digits; null for anything else (sign, space, other digits). */
    public static Long parse(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_DIGITS) {
            return null;
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
