package ai.convo.contract.token;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a custom Token in a project. Each Token is its own aggregate; label uniqueness is a write-side lookup. */
public record CreateTokenCommand(
        @TargetAggregateIdentifier TokenId tokenId,
        ProjectId projectId,
        Actor actor,
        String referenceId,
        String label,
        TokenType type,
        String script,
        long at) {
}
