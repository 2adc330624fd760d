package ai.convo.contract.function;

import java.util.List;

/** A Function after a PATCH: its full new state, which fields the PATCH changed, and who changed it when. */
public record FunctionUpdatedEvent(
        String functionId,
        String projectId,
        String organisationId,
        List<String> changedFields,
        String name,
        String code,
        boolean disabled,
        String changedBy,
        long changedAt) {
}
