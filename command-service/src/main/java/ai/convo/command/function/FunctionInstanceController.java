package ai.convo.command.function;

import ai.convo.command.task.TaskSubmitter;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.command.web.DecidingAgain;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.function.CheckFunctionRunnableCommand;
import ai.convo.contract.function.FunctionId;
import ai.convo.contract.function.FunctionInstanceId;
import ai.convo.contract.function.FunctionRunnable;
import ai.convo.contract.function.StopFunctionInstanceCommand;
import ai.convo.contract.function.TriggerFunctionCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.RequestTaskCancelCommand;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The client's triggerFunction and stopFunctionInstance; instances are read from the query service. */
@RestController
public class FunctionInstanceController {

    /** Serialised size of a trigger's parameters; they travel in events and into every run. */
    static final int MAX_PARAMETERS_CHARS = 64 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Commands commands;
    private final CommandGateway gateway;
    private final ObjectProvider<TaskSubmitter> submitter;
    private final TransactionTemplate transaction;

    FunctionInstanceController(Commands commands, CommandGateway gateway, ObjectProvider<TaskSubmitter> submitter,
                               PlatformTransactionManager transactions) {
        this.commands = commands;
        this.gateway = gateway;
        this.submitter = submitter;
        this.transaction = new TransactionTemplate(transactions);
    }

    /**
     * The body is the {@code parameters} object itself (any fields). The instance and its task are created in one
     * transaction, after the function was found enabled; 202 with {@code {functionInstanceId}}.
     */
    @PostMapping("/v2.0/functions/{functionId}/trigger")
    public Mono<ResponseEntity<byte[]>> trigger(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @PathVariable String functionId,
                                                @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("functionId", functionId);
        Map<String, Object> parameters = JsonBody.parse(exchange, raw, false).asMap();
        int size = JSON.writeValueAsString(parameters).length();
        if (size > MAX_PARAMETERS_CHARS) {
            throw ApiProblem.badRequest("The parameters (the request body) are " + size + " characters of JSON; at "
                    + "most " + MAX_PARAMETERS_CHARS + " are allowed.");
        }
        TaskSubmitter tasks = submitter.getIfAvailable();
        if (tasks == null) {
            return Mono.error(new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "Functions cannot be run by this service "
                    + "at the moment; retry later.", Map.of()));
        }
        FunctionInstanceId instanceId = FunctionInstanceId.generate();
        TaskId taskId = TaskId.generate();
        return commands.blocking(() -> DecidingAgain.run(() -> transaction.execute(status -> {
                    FunctionRunnable function = send(new CheckFunctionRunnableCommand(FunctionId.of(functionId),
                            caller.actor()));
                    ProjectId projectId = ProjectId.of(function.projectId());
                    send(new TriggerFunctionCommand(instanceId, FunctionId.of(functionId), projectId, caller.actor(),
                            "manual", parameters, function.code(), taskId, Clock.nowSeconds()));
                    return tasks.submit(taskId, RunFunctionWork.TYPE, projectId,
                            Map.of("functionInstanceId", instanceId.value(), "functionId", functionId), caller.actor());
                })))
                .map(submitted -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("functionInstanceId", instanceId.value());
                    return ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                            new Representation.Single("functionInstance", body),
                            exchange.getRequest().getPath().value().replaceFirst("/trigger$", "/instances/")
                                    + instanceId.value(), submitted.eventPosition());
                });
    }

    /**
     * Ends a queued or active instance {@code error} and cancels its run; an instance that has ended stays as it is.
     * Answers {@code {}} either way.
     */
    @PostMapping("/v2.0/functions/{functionId}/instances/{instanceId}/stop")
    public Mono<ResponseEntity<byte[]>> stop(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String functionId, @PathVariable String instanceId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("functionId", functionId);
        Ids.require("instanceId", instanceId);
        return commands.blocking(() -> DecidingAgain.run(() -> transaction.execute(status -> {
                    String taskId = send(new StopFunctionInstanceCommand(FunctionInstanceId.of(instanceId),
                            FunctionId.of(functionId), caller.actor(), Clock.nowSeconds()));
                    if (taskId != null) {
                        send(new RequestTaskCancelCommand(TaskId.of(taskId), caller.actor(), Clock.nowSeconds()));
                    }
                    return Boolean.TRUE;
                })))
                .map(done -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("result", Map.of()), null, null));
    }

    private <R> R send(Object command) {
        try {
            return gateway.sendAndWait(command);
        } catch (CommandExecutionException e) {
            throw e.getCause() instanceof DomainException domain ? domain : e;
        }
    }
}
