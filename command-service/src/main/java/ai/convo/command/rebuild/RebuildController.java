package ai.convo.command.rebuild;

import ai.convo.command.task.TaskRequests;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.rebuild.Projections;
import ai.convo.contract.task.SystemTasks;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * An operator's rebuild of projections (system administrators): 202 with the Task that follows it
 * ({@code currentStep}/{@code totalStep} = events done/total); the query service does the work while it serves.
 */
@RestController
class RebuildController {

    private static final Set<String> FIELDS = Set.of("projection", "requireIdentical");
    private static final List<String> ALLOWED;

    static {
        List<String> allowed = new ArrayList<>(List.of("all"));
        allowed.addAll(Projections.NAMES);
        ALLOWED = List.copyOf(allowed);
    }

    private final TaskRequests tasks;

    RebuildController(TaskRequests tasks) {
        this.tasks = tasks;
    }

    @PostMapping("/management/v2.0/projections/rebuild")
    public Mono<ResponseEntity<byte[]>> rebuild(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        if (!caller.isSystemAdmin()) {
            throw DomainException.forbidden("Only a system administrator can rebuild projections.");
        }
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(FIELDS);
        String projection = body.requiredEnum("projection", name -> Optional.ofNullable(ALLOWED.contains(name) ? name : null),
                ALLOWED);
        Boolean requireIdentical = body.optionalBoolean("requireIdentical");
        body.validate();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("projections", projection.equals("all") ? Projections.NAMES : List.of(projection));
        parameters.put("requireIdentical", Boolean.TRUE.equals(requireIdentical));
        return tasks.accept(exchange, media, ProjectId.of(SystemTasks.PROJECT_ID), TaskId.generate(),
                Projections.REBUILD_TASK, parameters, caller.actor(), null);
    }
}
