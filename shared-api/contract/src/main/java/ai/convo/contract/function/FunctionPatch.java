package ai.convo.contract.function;

/** The fields of a Function PATCH. A null means "leave unchanged". */
public record FunctionPatch(String name, String code, Boolean disabled) {

    public static FunctionPatch empty() {
        return new FunctionPatch(null, null, null);
    }
}
