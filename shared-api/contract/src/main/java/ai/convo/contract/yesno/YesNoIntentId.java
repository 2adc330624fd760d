package ai.convo.contract.yesno;

import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Id of a locale's yes, no or reject intent. A locale has exactly these three from its creation, so the id is derived
 * from the locale and the kind: every replica, a read before any edit and a rebuild name them alike.
 * {@link #toString()} is the bare id, which Axon uses to route commands.
 */
public record YesNoIntentId(String value) {

    public YesNoIntentId {
        Ids.require("yesNoIntentId", value);
    }

    public static YesNoIntentId of(String value) {
        return new YesNoIntentId(value);
    }

    public static YesNoIntentId of(String localeId, YesNoKind kind) {
        return new YesNoIntentId(derived("yesno:" + localeId + ":" + kind.wire()));
    }

    /** The id of the {@code index}th built-in sentence of this intent. */
    public String builtInSentenceId(int index) {
        return derived("yesno-sentence:" + value + ":" + index);
    }

    /** 24 characters of [a-z0-9] from SHA-256 of {@code seed}. */
    static String derived(String seed) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            StringBuilder id = new StringBuilder(24);
            for (int i = 0; i < 24; i++) {
                id.append(Character.forDigit((hash[i] & 0xff) % 36, 36));
            }
            return id.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
