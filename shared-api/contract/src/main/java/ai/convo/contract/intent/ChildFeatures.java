package ai.convo.contract.intent;

import java.util.List;

/**
 * {@code childFeatures} of an intent: on the wire either a boolean (all children's features, or none) or a
 * list of intent ids. Exactly one of the two components is set; stored events keep this shape.
 */
public record ChildFeatures(Boolean all, List<String> intentIds) {

    public static final ChildFeatures NONE = new ChildFeatures(false, null);

    public ChildFeatures {
        if ((all == null) == (intentIds == null)) {
            throw new IllegalArgumentException("childFeatures is either a boolean or a list of intent ids");
        }
        intentIds = intentIds == null ? null : List.copyOf(intentIds);
    }

    public static ChildFeatures of(boolean all) {
        return new ChildFeatures(all, null);
    }

    public static ChildFeatures of(List<String> intentIds) {
        return new ChildFeatures(null, intentIds);
    }

    /** The wire value: the boolean, or the list of ids. */
    public Object toWire() {
        return all != null ? all : intentIds;
    }
}
