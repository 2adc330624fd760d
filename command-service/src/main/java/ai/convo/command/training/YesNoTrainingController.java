package ai.convo.command.training;

import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.TaskRequests;
import ai.convo.command.task.TaskSubmitter;
import ai.convo.command.web.Absent;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's trainYesNoIntents (one locale) and trainYesNoIntentsProject (every locale of the project):
 * one task per locale, answered as {@code {tasks: [...]}} (202). Neither route reads a body.
 */
@RestController
class YesNoTrainingController {

    private final Commands commands;
    private final LocaleLookup locales;
    private final ProjectLookup projects;
    private final ProjectCapture capture;
    private final TaskRequests tasks;

    YesNoTrainingController(Commands commands, LocaleLookup locales, ProjectLookup projects, ProjectCapture capture,
                            TaskRequests tasks) {
        this.commands = commands;
        this.locales = locales;
        this.projects = projects;
        this.capture = capture;
        this.tasks = tasks;
    }

    @PostMapping("/v2.0/locales/{localeId}/yesnointents/train")
    public Mono<ResponseEntity<byte[]>> trainLocale(ServerWebExchange exchange,
                                                    @AuthenticationPrincipal ApiPrincipal caller,
                                                    @PathVariable String localeId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("localeId", localeId);
        Actor actor = caller.actor();
        return commands.blocking(() -> {
            String projectId = locales.projectOf(localeId).orElseThrow(() -> Absent.of(LocaleId.class, localeId));
            try {
                projects.requireVisible(projectId, actor);
            } catch (DomainException notVisible) {
                throw Absent.of(LocaleId.class, localeId);
            }
            return projectId;
        }).flatMap(projectId -> submit(exchange, media, projectId, List.of(localeId), actor));
    }

    @PostMapping("/v2.0/projects/{projectId}/locales/yesnointents/train")
    public Mono<ResponseEntity<byte[]>> trainProject(ServerWebExchange exchange,
                                                     @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String projectId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Actor actor = caller.actor();
        return commands.blocking(() -> {
            projects.requireVisible(projectId, actor);
            return List.copyOf(capture.localesOf(projectId).nluLanguages().keySet());
        }).flatMap(localeIds -> submit(exchange, media, projectId, localeIds, actor));
    }

    private Mono<ResponseEntity<byte[]>> submit(ServerWebExchange exchange, ApiMedia media, String projectId,
                                                List<String> localeIds, Actor actor) {
        return tasks.inTransaction(submitter -> {
            List<TaskSubmitter.Submitted> submitted = new ArrayList<>();
            for (String localeId : localeIds) {
                Map<String, Object> parameters = new LinkedHashMap<>();
                parameters.put("localeId", localeId);
                submitted.add(submitter.submit(TaskId.generate(), TrainYesNoIntentsWork.TYPE, ProjectId.of(projectId),
                        parameters, actor));
            }
            return submitted;
        }).map(submitted -> {
            Long position = submitted.stream().map(TaskSubmitter.Submitted::eventPosition)
                    .filter(p -> p != null).max(Long::compare).orElse(null);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("tasks", submitted.stream().map(TaskSubmitter.Submitted::record).toList());
            return ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                    new Representation.Single("tasks", body), null, position);
        });
    }
}
