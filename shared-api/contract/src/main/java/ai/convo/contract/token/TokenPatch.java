package ai.convo.contract.token;

/** The fields of a Token PATCH. A null means "leave unchanged". */
public record TokenPatch(String label, TokenType type, String script) {

    public static TokenPatch empty() {
        return new TokenPatch(null, null, null);
    }
}
