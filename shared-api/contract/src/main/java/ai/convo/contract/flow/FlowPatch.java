package ai.convo.contract.flow;

/** The fields of a flow PATCH. A null means "leave unchanged"; an empty description clears it. */
public record FlowPatch(String name, String description) {

    public static FlowPatch empty() {
        return new FlowPatch(null, null);
    }
}
