package ai.convo.contract.project;

import java.util.Map;

/**
 * Project settings a client changed: each setting's dotted path (see Settings.PROJECT) to its new value, only the
 * ones whose value changed. Values are JSON's own: booleans, strings, numbers, lists of strings, null.
 */
public record ProjectSettingsUpdatedEvent(
        String projectId,
        String organisationId,
        Map<String, Object> changed,
        String changedBy,
        long changedAt) {
}
