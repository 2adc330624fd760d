package ai.convo.command.yesno;

import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.web.Absent;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoTarget;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/** Finds a locale's yes/no intent for a request: the locale must be the caller's, the id one of its three. */
@Component
class YesNoTargets {

    private final LocaleLookup locales;
    private final ProjectLookup projects;
    private final ProjectCapture capture;

    YesNoTargets(LocaleLookup locales, ProjectLookup projects, ProjectCapture capture) {
        this.locales = locales;
        this.projects = projects;
        this.capture = capture;
    }

    /** The locale's project, visible to the actor; another organisation's locale answers as a missing one. */
    String projectOf(String localeId, Actor actor) {
        String projectId = locales.projectOf(localeId).orElseThrow(() -> Absent.of(LocaleId.class, localeId));
        try {
            projects.requireVisible(projectId, actor);
        } catch (DomainException notVisible) {
            throw Absent.of(LocaleId.class, localeId);
        }
        return projectId;
    }

    YesNoTarget find(String localeId, String intentId, Actor actor) {
        String projectId = projectOf(localeId, actor);
        List<String> ids = new ArrayList<>();
        for (YesNoKind kind : YesNoKind.values()) {
            String id = YesNoIntentId.of(localeId, kind).value();
            if (id.equals(intentId)) {
                return new YesNoTarget(localeId, projectId, capture.localesOf(projectId).nluLanguages().get(localeId),
                        kind);
            }
            ids.add(kind.wire() + ": " + id);
        }
        throw DomainException.notFound("Intent " + intentId + " is not a yes/no intent of locale " + localeId
                + "; its yes/no intents are " + String.join(", ", ids) + ".");
    }
}
