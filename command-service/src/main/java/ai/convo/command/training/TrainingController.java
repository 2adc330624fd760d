package ai.convo.command.training;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.TaskRequests;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's trainIntents and trainAllProjectFlows: each a Task (202, {@code Location}); the flow keeps
 * answering with its last trained model while one runs. trainAllProjectFlows ignores its body: the client sends its
 * options object there.
 */
@RestController
class TrainingController {

    static final List<String> MODES = List.of("full", "quick");

    private final Commands commands;
    private final FlowLookup flows;
    private final ProjectLookup projects;
    private final LocaleLookup locales;
    private final ProjectCapture capture;
    private final TaskRequests tasks;

    TrainingController(Commands commands, FlowLookup flows, ProjectLookup projects, LocaleLookup locales,
                       ProjectCapture capture, TaskRequests tasks) {
        this.commands = commands;
        this.flows = flows;
        this.projects = projects;
        this.locales = locales;
        this.capture = capture;
        this.tasks = tasks;
    }

    @PostMapping("/v2.0/flows/{flowId}/intents/train")
    public Mono<ResponseEntity<byte[]>> trainIntents(ServerWebExchange exchange,
                                                     @AuthenticationPrincipal ApiPrincipal caller,
                                                     @PathVariable String flowId,
                                                     @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("flowId", flowId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(Set.of("localeId", "mode"));
        String localeId = body.optionalId("localeId");
        String mode = body.optionalEnum("mode", m -> MODES.contains(m) ? Optional.of(m) : Optional.empty(), MODES);
        body.validate();
        Actor actor = caller.actor();
        TaskId taskId = TaskId.generate();
        return commands.blocking(() -> {
            FlowLookup.Flow flow = flows.requireVisible(flowId, actor);
            String locale = localeId;
            if (locale == null) {
                locale = capture.localesOf(flow.projectId()).primaryLocaleId();
            } else if (!locales.projectOf(locale).map(flow.projectId()::equals).orElse(false)) {
                throw DomainException.invalid("localeId", "localeId " + locale
                        + " is not a locale of this flow's project.");
            }
            return Map.entry(flow.projectId(), locale);
        }).flatMap(found -> tasks.accept(exchange, media, ProjectId.of(found.getKey()), taskId, TrainIntentsWork.TYPE,
                parameters("flowId", flowId, "localeId", found.getValue(), "mode", mode == null ? "full" : mode),
                actor, null));
    }

    @PostMapping("/v2.0/projects/{projectId}/trainallflows")
    public Mono<ResponseEntity<byte[]>> trainAllFlows(ServerWebExchange exchange,
                                                      @AuthenticationPrincipal ApiPrincipal caller,
                                                      @PathVariable String projectId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Actor actor = caller.actor();
        TaskId taskId = TaskId.generate();
        return commands.blocking(() -> {
            projects.requireVisible(projectId, actor);
            return projectId;
        }).flatMap(id -> tasks.accept(exchange, media, ProjectId.of(id), taskId, TrainAllFlowsWork.TYPE,
                parameters("projectId", id, "mode", "full"), actor, null));
    }

    private static Map<String, Object> parameters(String... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
