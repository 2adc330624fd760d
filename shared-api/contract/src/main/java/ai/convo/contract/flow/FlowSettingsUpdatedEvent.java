package ai.convo.contract.flow;

import java.util.Map;

/**
 * Flow settings a client changed, only those whose value changed: each setting's dotted path (see Settings.FLOW) to
 * its new value, and each locale whose inheritFallbackLocaleModel changed to its new value.
 */
public record FlowSettingsUpdatedEvent(
        String flowId,
        String projectId,
        String organisationId,
        Map<String, Object> changed,
        Map<String, Boolean> localeSettings,
        String changedBy,
        long changedAt) {
}
