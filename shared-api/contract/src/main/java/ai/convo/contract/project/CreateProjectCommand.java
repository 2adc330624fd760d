package ai.convo.contract.project;

import ai.convo.contract.common.Actor;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.NluLanguage;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a project with its primary locale (a project always has exactly one). */
public record CreateProjectCommand(
        @TargetAggregateIdentifier ProjectId projectId,
        Actor actor,
        String name,
        String color,
        LocaleId primaryLocaleId,
        String primaryLocaleReferenceId,
        NluLanguage nluLanguage,
        long at) {
}
