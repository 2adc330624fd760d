package ai.convo.contract.locale;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Locales live inside the project aggregate, so the one-primary and no-cycle rules are checked in one place. */
public record CreateLocaleCommand(
        @TargetAggregateIdentifier ProjectId projectId,
        LocaleId localeId,
        Actor actor,
        String referenceId,
        String name,
        NluLanguage nluLanguage,
        boolean primary,
        LocaleId fallbackLocaleReference,
        long at) {
}
