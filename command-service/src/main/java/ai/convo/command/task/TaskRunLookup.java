package ai.convo.command.task;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.task.TaskCancelRequestedEvent;
import ai.convo.contract.task.TaskCancelledEvent;
import ai.convo.contract.task.TaskCompletedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskFailedEvent;
import ai.convo.contract.task.TaskStartedEvent;
import ai.convo.contract.task.TaskStatus;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps {@code task_run} (what the runners claim) in the same transaction as the task events, so a runner never sees a
 * task the log does not have, nor misses a cancel request the log has. Runners own the lease columns; a task that
 * ends gives its lease back here.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class TaskRunLookup {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcTemplate jdbc;

    TaskRunLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(TaskCreatedEvent event) {
        jdbc.update("INSERT INTO task_run (task_id, project_id, organisation_id, type, status, parameters, created_by, "
                        + "creator_role) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)", event.taskId(), event.projectId(),
                event.organisationId(), event.type(), JSON.writeValueAsString(event.parameters()), event.createdBy(),
                event.creatorRole());
    }

    @EventHandler
    void on(TaskStartedEvent event) {
        jdbc.update("UPDATE task_run SET status = 'active', attempts = ?, runner_id = ? WHERE task_id = ?",
                event.attempt(), event.runnerId(), event.taskId());
    }

    @EventHandler
    void on(TaskCancelRequestedEvent event) {
        jdbc.update("UPDATE task_run SET status = 'cancelling' WHERE task_id = ?", event.taskId());
    }

    @EventHandler
    void on(TaskCompletedEvent event) {
        ended(event.taskId(), TaskStatus.done);
    }

    @EventHandler
    void on(TaskFailedEvent event) {
        ended(event.taskId(), TaskStatus.error);
    }

    @EventHandler
    void on(TaskCancelledEvent event) {
        ended(event.taskId(), TaskStatus.cancelled);
    }

    private void ended(String taskId, TaskStatus status) {
        jdbc.update("UPDATE task_run SET status = ?, runner_id = NULL, lease_until = NULL WHERE task_id = ?",
                status.name(), taskId);
    }
}
