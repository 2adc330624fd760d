package ai.convo.contract.project;

import ai.convo.contract.common.Actor;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sets project settings: {@code changes} maps a setting's dotted path to its checked value (see Settings.PROJECT). */
public record UpdateProjectSettingsCommand(
        @TargetAggregateIdentifier ProjectId projectId,
        Actor actor,
        Map<String, Object> changes,
        long at) {
}
