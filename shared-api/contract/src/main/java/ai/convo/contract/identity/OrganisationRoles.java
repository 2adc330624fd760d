package ai.convo.contract.identity;

import java.util.List;

/**
 * The client's organisation-wide roles, by the names it sends. {@code admin} is full access to the organisation
 * (as the coarse {@link Role#ORG_ADMIN}); {@code userManager} manages users; {@code userDetailsViewer} reads them.
 */
public final class OrganisationRoles {

    public static final String ADMIN = "admin";
    public static final String USER_MANAGER = "userManager";
    public static final String USER_DETAILS_VIEWER = "userDetailsViewer";
    public static final String PROJECT_MANAGER = "projectManager";

    /** As the official client lists them (its {@code organisationWideRoles}, 0.19.0). */
    public static final List<String> ALL = List.of(ADMIN, "apiKeys", "base_role", "basicSupportUser",
            "fullSupportUser", "liveAgentAdmin", "liveAgentAgent", "liveAgentSupervisor", "livechat", "odata",
            "projectAssigner", PROJECT_MANAGER, USER_MANAGER, USER_DETAILS_VIEWER, "voiceGatewayUser");

    private OrganisationRoles() {
    }
}
