package ai.convo.contract.state;

import ai.convo.contract.intent.IntentId;
import java.util.List;

/** The fields of a state PATCH. A null means "leave unchanged"; {@code intentIds} replaces the whole list. */
public record StatePatch(String name, StateType type, Boolean isDefault, List<IntentId> intentIds) {

    public StatePatch {
        intentIds = intentIds == null ? null : List.copyOf(intentIds);
    }

    public static StatePatch empty() {
        return new StatePatch(null, null, null, null);
    }
}
