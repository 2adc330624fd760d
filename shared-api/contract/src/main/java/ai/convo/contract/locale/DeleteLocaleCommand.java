package ai.convo.contract.locale;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteLocaleCommand(
        @TargetAggregateIdentifier ProjectId projectId,
        LocaleId localeId,
        Actor actor,
        long at) {
}
