package ai.convo.contract.member;

import java.util.List;

/** The client's project-wide roles, by the names it sends (its spelling, underscores included). */
public final class ProjectRoles {

    public static final String PROJECT_ADMIN = "projectAdmin";
    public static final String BASIC = "basic";
    public static final String MEMBER_MANAGER = "memberManager";

    /** As the official client lists them (its {@code projectWideRoles}, 0.19.0). */
    public static final List<String> ALL = List.of("agentAssistConfigAdmin", "agentAssistConfigViewer", "analytics",
            BASIC, "connection_admin", "contact_profile_admin", "contact_profile_editor", "contact_profile_viewer",
            "conversationHistory", "developer", "endpoint_admin", "extension_admin", "extension_editor",
            "extension_trust_admin", "flowEditor", "flowNodeComments", "flowNodeDescriptions", "followUser",
            "function_admin", "function_editor", "intents", "knowledgeAdmin", "large_language_model_admin",
            "lexicon_admin", "lexicon_editor", "localesAdmin", "logs", MEMBER_MANAGER, "nlu_connector_admin",
            "packages_admin", "playbook_admin", "playbook_editor", PROJECT_ADMIN, "snapshot_admin", "tokenAdmin",
            "tokenEditor", "data_privacy_admin", "data_privacy_editor", "data_privacy_viewer");

    private ProjectRoles() {
    }
}
