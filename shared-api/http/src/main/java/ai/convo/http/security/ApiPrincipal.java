package ai.convo.http.security;

import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.OrganisationRoles;
import ai.convo.contract.identity.Role;
import java.util.Set;

/**
 * The authenticated caller: a user of one organisation, and how they authenticated. {@code roles} are the client's
 * organisation-wide roles the user holds.
 */
public record ApiPrincipal(String userId, String organisationId, Role role, String email, AuthScheme scheme,
                           Set<String> roles) {

    public ApiPrincipal {
        roles = roles == null ? Set.of() : Set.copyOf(roles);
    }

    public ApiPrincipal(String userId, String organisationId, Role role, String email, AuthScheme scheme) {
        this(userId, organisationId, role, email, scheme, Set.of());
    }

    public Actor actor() {
        return new Actor(userId, organisationId, role);
    }

    public boolean isSystemAdmin() {
        return role == Role.SYSTEM_ADMIN;
    }

    /** Full access to everything of the organisation: its first administrator, a system one, or role admin. */
    public boolean isOrganisationAdmin() {
        return role == Role.SYSTEM_ADMIN || role == Role.ORG_ADMIN || roles.contains(OrganisationRoles.ADMIN);
    }

    /** The organisation-wide roles in effect: those held, and admin for an organisation administrator. */
    public boolean holds(String organisationRole) {
        return isOrganisationAdmin() || roles.contains(organisationRole);
    }

    public ApiPrincipal via(AuthScheme how) {
        return new ApiPrincipal(userId, organisationId, role, email, how, roles);
    }
}
