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

    private static final Generator GENERATOR = new Generator(RANDOM);

    /**
     * A new id laid out as a Mongo ObjectId: the creation second (4 bytes), this process's random bytes (5), and a
     * counter that starts again every second (3). Lists sort by createdAt (seconds) and then _id, so resources
     * created in one second by one process list in the order they were created; across processes in one second the
     * order is by process, as with ObjectIds.
     */
    public static String newId() {
        return GENERATOR.next(System.currentTimeMillis() / 1000);
    }

    static final class Generator {
        /** Random per process: ids of two processes never collide. */
        private final byte[] process = new byte[5];
        private long lastSecond;
        private int counter;

        Generator(SecureRandom random) {
            random.nextBytes(process);
        }

        synchronized String next(long nowSecond) {
            // A clock stepping back keeps the last second, so ids of one process never sort before earlier ones.
            if (nowSecond > lastSecond) {
                lastSecond = nowSecond;
                counter = 0;
            } else if (counter == 0xFFFFFF) {
                lastSecond++;
                counter = 0;
            } else {
                counter++;
            }
            byte[] bytes = new byte[12];
            bytes[0] = (byte) (lastSecond >>> 24);
            bytes[1] = (byte) (lastSecond >>> 16);
            bytes[2] = (byte) (lastSecond >>> 8);
            bytes[3] = (byte) lastSecond;
            System.arraycopy(process, 0, bytes, 4, 5);
            bytes[9] = (byte) (counter >>> 16);
            bytes[10] = (byte) (counter >>> 8);
            bytes[11] = (byte) counter;
            return HexFormat.of().formatHex(bytes);
        }
    }

    /** What {@link #PATTERN} matches, without a regex: every read checks its path's ids with it. */
    public static boolean isValid(String value) {
        if (value == null || value.length() != 24) {
            return false;
        }
        for (int i = 0; i < 24; i++) {
            char c = value.charAt(i);
            if ((c < 'a' || c > 'z') && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
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
