package ai.convo.command.task;

import ai.convo.command.web.Clock;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.CreateTaskCommand;
import ai.convo.contract.task.TaskId;
import ai.convo.contract.task.TaskRecord;
import ai.convo.contract.task.TaskStatus;
import ai.convo.persistence.EventPositions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Creates tasks and wakes this process's runner, so a task created here starts without waiting for a poll. */
@Component
class TaskSubmissions implements TaskSubmitter {

    private final CommandGateway gateway;
    private final EventPositions positions;
    private final ObjectProvider<TaskRunner> runner;

    TaskSubmissions(CommandGateway gateway, EventPositions positions, ObjectProvider<TaskRunner> runner) {
        this.gateway = gateway;
        this.positions = positions;
        this.runner = runner;
    }

    @Override
    public Submitted submit(TaskId taskId, String type, ProjectId projectId, Map<String, Object> parameters,
                            Actor actor) {
        long now = Clock.nowSeconds();
        Map<String, Object> copy = parameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        try {
            gateway.sendAndWait(new CreateTaskCommand(taskId, projectId, actor, type, copy, now));
        } catch (CommandExecutionException e) {
            throw e.getCause() instanceof DomainException domain ? domain : e;
        }
        Long position = positions.latestOf(List.of(taskId.value()));
        runner.ifAvailable(TaskRunner::wake);
        TaskRecord record = new TaskRecord(taskId.value(), TaskStatus.queued, type, copy, 0, 0, null, now, now,
                actor.userId(), actor.userId());
        return new Submitted(taskId, record.toWire(), position);
    }
}
