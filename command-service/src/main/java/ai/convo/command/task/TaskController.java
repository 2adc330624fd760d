package ai.convo.command.task;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.task.RequestTaskCancelCommand;
import ai.convo.contract.task.TaskId;
import ai.convo.contract.task.TaskRecord;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The specification's task cancel. */
@RestController
class TaskController {

    private final Commands commands;
    private final ObjectProvider<TaskRunner> runner;

    TaskController(Commands commands, ObjectProvider<TaskRunner> runner) {
        this.commands = commands;
        this.runner = runner;
    }

    /**
     * 202 with the Task as the write model has it (the read side may lag), {@code cancelling} unless it already was
     * cancelled; HAL+JSON unless asked otherwise. No body is read. The runner is woken so that a task that never
     * started is confirmed cancelled at once.
     */
    @PostMapping("/v2.0/tasks/{taskId}/cancel")
    public Mono<ResponseEntity<byte[]>> cancel(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String taskId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.HAL);
        Ids.require("taskId", taskId);
        return commands.<TaskRecord>send(new RequestTaskCancelCommand(TaskId.of(taskId), caller.actor(),
                        Clock.nowSeconds()), taskId)
                .doOnNext(sent -> runner.ifAvailable(TaskRunner::wake))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                        new Representation.Single("task", sent.result().toWire()), null, sent.position()));
    }
}
