package ai.convo.contract.state;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How a state uses its intents: a {@code blacklist} state disables the intents it names, a {@code whitelist}
 * state enables only those. Events store the wire code, never the constant name.
 */
public enum StateType {
    BLACKLIST("blacklist"), WHITELIST("whitelist");

    private final String code;

    StateType(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** Exact, case-sensitive match on the wire code. */
    public static Optional<StateType> fromCode(String code) {
        return Arrays.stream(values()).filter(t -> t.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(StateType::code).toList();
    }
}
