package ai.convo.contract.common;

import ai.convo.contract.identity.Role;

/** Who sends a command: the authenticated user and the organisation they act in. */
public record Actor(String userId, String organisationId, Role role) {
    public Actor {
        Ids.require("userId", userId);
        Ids.require("organisationId", organisationId);
        if (role == null) {
            throw new IllegalArgumentException("role is required");
        }
    }
}
