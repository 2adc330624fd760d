package ai.convo.http.security;

import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.Role;

/** The authenticated caller: a user of one organisation, and how they authenticated. */
public record ApiPrincipal(String userId, String organisationId, Role role, String email, AuthScheme scheme) {

    public Actor actor() {
        return new Actor(userId, organisationId, role);
    }

    public boolean isSystemAdmin() {
        return role == Role.SYSTEM_ADMIN;
    }

    public ApiPrincipal via(AuthScheme how) {
        return new ApiPrincipal(userId, organisationId, role, email, how);
    }
}
