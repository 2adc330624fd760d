package ai.convo.contract.member;

import java.util.List;

/** The client's project-wide roles, by the names it sends (its spelling, underscores included). */
public final class ProjectRoles {

    public static final String PROJECT_ADMIN = "projectAdmin";
    public static final String BASIC = "basic";
    public static final String MEMBER_MANAGER = "memberManager";

    public static final List<String> ALL = List.of("aiAgentAdmin", "analytics", BASIC, "connectionAdmin",
            "contactProfileAdmin", "contactProfileEditor", "contactProfileViewer", "conversationHistory",
            "dataPrivacyAdmin", "dataPrivacyEditor", "dataPrivacyViewer", "developer", "endpointAdmin",
            "extensionAdmin", "extensionEditor", "flowEditor", "flowNodeComments", "flowNodeDescriptions",
            "followUser", "function_admin", "function_editor", "handoverProviderAdmin", "intents", "knowledgeAdmin",
            "largeLanguageModelAdmin", "lexiconAdmin", "lexiconEditor", "localesAdmin", "logs", MEMBER_MANAGER,
            "nluConnectorAdmin", "playbookAdmin", "playbookEditor", PROJECT_ADMIN, "snapshot_admin", "snapshots",
            "tokenAdmin", "tokenEditor");

    private ProjectRoles() {
    }
}
