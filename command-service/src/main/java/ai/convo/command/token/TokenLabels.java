package ai.convo.command.token;

import java.util.Optional;

/** The set-based part of the token rules: which token of a project holds a label, ignoring case. */
interface TokenLabels {

    /** The id of the custom token of {@code projectId} whose label equals {@code label} ignoring case, if any. */
    Optional<String> holderOf(String projectId, String label);
}
