package ai.convo.contract.token;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The kinds of Token, by their wire code. Events store the wire code, never the constant name. */
public enum TokenType {
    PROFILE("profile"), INPUT("input"), CONTEXT("context"), CUSTOM("custom"), ANSWER("answer"),
    FLOW_OUTPUT("flow-output"), FLOW_INPUT("flow-input");

    private final String code;

    TokenType(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** Exact, case-sensitive match on the wire code. */
    public static Optional<TokenType> fromCode(String code) {
        return Arrays.stream(values()).filter(t -> t.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(TokenType::code).toList();
    }
}
