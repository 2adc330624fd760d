package ai.convo.contract.intent;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The allowed values of {@code biasTowardsParentOrChildIntents}, by their wire code. */
public enum IntentBias {
    PARENTS("parents"), CHILDREN("children");

    private final String code;

    IntentBias(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public static Optional<IntentBias> fromCode(String code) {
        return Arrays.stream(values()).filter(b -> b.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(IntentBias::code).toList();
    }
}
