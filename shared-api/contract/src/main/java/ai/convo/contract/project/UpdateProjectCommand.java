package ai.convo.contract.project;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Renames or recolours a project; answers the project as it is afterwards. */
public record UpdateProjectCommand(
        @TargetAggregateIdentifier ProjectId projectId,
        Actor actor,
        ProjectPatch patch,
        long at) {
}
