package ai.convo.command.task;

import ai.convo.command.web.Commands;
import ai.convo.command.web.DecidingAgain;
import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * How a route starts a Task: the route's own command (which decides whether the task may start) and the task's
 * creation in ONE transaction, so a refused command creates no task and a task never exists without its command's
 * event; then 202 with the Task record and {@code Location: {base}/v2.0/tasks/{id}}.
 */
@Component
public class TaskRequests {

    private final Commands commands;
    private final CommandGateway gateway;
    private final ObjectProvider<TaskSubmitter> submitter;
    private final TransactionTemplate transaction;

    TaskRequests(Commands commands, CommandGateway gateway, ObjectProvider<TaskSubmitter> submitter,
                 PlatformTransactionManager transactions) {
        this.commands = commands;
        this.gateway = gateway;
        this.submitter = submitter;
        this.transaction = new TransactionTemplate(transactions);
    }

    /**
     * Submits the task (after sending {@code command}, when there is one, and running what its supplier does, in
     * the same transaction) and answers 202. A service that runs no tasks answers 503.
     */
    public Mono<ResponseEntity<byte[]>> accept(ServerWebExchange exchange, ApiMedia media, ProjectId projectId,
                                               TaskId taskId, String type, Map<String, Object> parameters, Actor actor,
                                               Supplier<Object> command) {
        return submit(projectId, taskId, type, parameters, actor, command)
                .map(submitted -> ApiResponses.respond(exchange, HttpStatus.ACCEPTED, media,
                        new Representation.Single("task", submitted.record()), location(exchange, taskId),
                        submitted.eventPosition()));
    }

    /**
     * The same transaction as {@link #accept}, for a route that answers something else than 202 with the task (a
     * created resource that carries its task, say).
     */
    public Mono<TaskSubmitter.Submitted> submit(ProjectId projectId, TaskId taskId, String type,
                                                Map<String, Object> parameters, Actor actor, Supplier<Object> command) {
        return inTransaction(tasks -> {
            Object sent = command == null ? null : command.get();
            if (sent != null) {
                gateway.sendAndWait(sent);
            }
            return tasks.submit(taskId, type, projectId, parameters, actor);
        });
    }

    /**
     * Runs {@code decision} (which may submit tasks, send commands and write rows) in one transaction, decided again
     * when another writer got to an aggregate first; off the event loop. A service that runs no tasks: 503.
     */
    public <T> Mono<T> inTransaction(Function<TaskSubmitter, T> decision) {
        TaskSubmitter tasks = submitter.getIfAvailable();
        if (tasks == null) {
            return Mono.error(new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "Tasks cannot be run by this service "
                    + "at the moment; retry later.", Map.of()));
        }
        return commands.blocking(() -> DecidingAgain.run(() -> transaction.execute(status -> decision.apply(tasks))));
    }

    /** {base path}/v2.0/tasks/{id}: the request path up to its version (or management) segment. */
    public static String location(ServerWebExchange exchange, TaskId taskId) {
        String path = exchange.getRequest().getPath().value();
        int base = path.indexOf("/v2.0/");
        int management = path.indexOf("/management/");
        int end = management >= 0 && (base < 0 || management < base) ? management : base;
        return path.substring(0, Math.max(0, end)) + "/v2.0/tasks/" + taskId.value();
    }
}
