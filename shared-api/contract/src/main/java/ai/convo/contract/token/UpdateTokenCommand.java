package ai.convo.contract.token;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code projectId} is the project named in the path; a Token of another project answers 404. */
public record UpdateTokenCommand(
        @TargetAggregateIdentifier TokenId tokenId,
        ProjectId projectId,
        Actor actor,
        TokenPatch patch,
        long at) {
}
