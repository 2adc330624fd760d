package ai.convo.contract.state;

import java.util.List;

/**
 * A state of a flow was created. {@code type} is the wire code ("blacklist", "whitelist"). When it is the default,
 * a {@link DefaultStateChangedEvent} of the same command follows.
 */
public record StateCreatedEvent(
        String flowId,
        String projectId,
        String organisationId,
        String stateId,
        String referenceId,
        String name,
        String type,
        boolean isDefault,
        List<String> intentIds,
        String createdBy,
        long createdAt) {
}
