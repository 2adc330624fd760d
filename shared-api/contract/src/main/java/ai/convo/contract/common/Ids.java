package ai.convo.contract.common;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Identifiers of this API: 24 lowercase hex characters, the shape of a Mongo ObjectId, which the official client expects. */
public final class Ids {
    public static final Pattern PATTERN = Pattern.compile("^[a-z0-9]{24}$");
    private static final SecureRandom RANDOM = new SecureRandom();

    private Ids() {
    }

    public static String newId() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public static boolean isValid(String value) {
        return value != null && PATTERN.matcher(value).matches();
    }

    /** Throws a 400-kind {@link DomainException} naming the field when the value is not an id. */
    public static String require(String field, String value) {
        if (!isValid(value)) {
            throw DomainException.invalid(field, field + " must be 24 characters of [a-z0-9]; got " + describe(value));
        }
        return value;
    }

    static String describe(String value) {
        if (value == null) {
            return "nothing";
        }
        String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
        return "'" + shown + "' (" + value.length() + " characters)";
    }
}
