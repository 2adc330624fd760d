package ai.convo.contract.intent;

import java.util.List;

/** A sentence after a PATCH: its full new state and the fields that changed. */
public record SentenceUpdatedEvent(
        String sentenceId,
        String intentId,
        String flowId,
        String projectId,
        String organisationId,
        String localeId,
        List<String> changedFields,
        String text,
        String changedBy,
        long changedAt) {
}
