package ai.convo.query.task;

import ai.convo.contract.task.TaskCancelRequestedEvent;
import ai.convo.contract.task.TaskCancelledEvent;
import ai.convo.contract.task.TaskCompletedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskFailedEvent;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.contract.task.TaskStartedEvent;
import ai.convo.contract.task.TaskStatus;
import ai.convo.http.media.Renderer;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The task read model; plain code that a test can feed events. Only task events change it (sequenced per task, the
 * default), so a task's moves apply in order. A task outlives its project's deletion: it is history of the
 * organisation, readable by id, while the project's list answers 404 with the project.
 */
@Component
@ProcessingGroup(TaskProjection.GROUP)
public class TaskProjection {

    public static final String GROUP = "tasks";

    private final BatchingJdbcTemplate jdbc;

    public TaskProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(TaskCreatedEvent event) {
        jdbc.write("INSERT INTO task_view (id, project_id, organisation_id, type, status, parameters, current_step, "
                        + "total_step, fail_reason, created_at, last_changed, created_by, last_changed_by) "
                        + "VALUES (?, ?, ?, ?, 'queued', ?, 0, 0, NULL, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.taskId(), event.projectId(), event.organisationId(), event.type(),
                Renderer.JSON.writeValueAsString(event.parameters()), event.createdAt(), event.createdAt(),
                event.createdBy(), event.createdBy());
    }

    /** A start (or a restart after a takeover) begins from step 0. */
    @EventHandler
    public void on(TaskStartedEvent event) {
        jdbc.write("UPDATE task_view SET status = 'active', current_step = 0, total_step = 0, last_changed = ? "
                + "WHERE id = ?", event.startedAt(), event.taskId());
    }

    @EventHandler
    public void on(TaskProgressedEvent event) {
        jdbc.write("UPDATE task_view SET current_step = ?, total_step = ?, last_changed = ? WHERE id = ?",
                event.currentStep(), event.totalStep(), event.at(), event.taskId());
    }

    @EventHandler
    public void on(TaskCancelRequestedEvent event) {
        jdbc.write("UPDATE task_view SET status = 'cancelling', last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.requestedAt(), event.requestedBy(), event.taskId());
    }

    @EventHandler
    public void on(TaskCompletedEvent event) {
        ended(event.taskId(), TaskStatus.done, null, event.completedAt());
        // The last step is the work's commit, which it cannot report before it happens: done means all steps.
        jdbc.write("UPDATE task_view SET current_step = GREATEST(current_step, total_step) WHERE id = ?", event.taskId());
    }

    @EventHandler
    public void on(TaskFailedEvent event) {
        ended(event.taskId(), TaskStatus.error, event.failReason(), event.failedAt());
    }

    @EventHandler
    public void on(TaskCancelledEvent event) {
        ended(event.taskId(), TaskStatus.cancelled, null, event.cancelledAt());
    }

    private void ended(String taskId, TaskStatus status, String failReason, long at) {
        jdbc.write("UPDATE task_view SET status = ?, fail_reason = ?, last_changed = ? WHERE id = ?", status.name(),
                failReason, at, taskId);
    }
}
