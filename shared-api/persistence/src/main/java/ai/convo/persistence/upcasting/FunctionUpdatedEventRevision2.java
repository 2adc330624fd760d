package ai.convo.persistence.upcasting;

import ai.convo.contract.function.FunctionUpdatedEvent;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link FunctionUpdatedEvent} revision 1 (stored with no revision) to 2: {@code disabled} is called
 * {@code isDisabled}, as in the API and in the event's own {@code changedFields}. Nothing else changed.
 */
public final class FunctionUpdatedEventRevision2 extends JsonPayloadUpcaster {

    public FunctionUpdatedEventRevision2() {
        super(FunctionUpdatedEvent.class, null, "2");
    }

    @Override
    protected ObjectNode upcast(ObjectNode payload) {
        return rename(payload, "disabled", "isDisabled");
    }
}
