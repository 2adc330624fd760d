package ai.convo.command.task;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import java.util.Map;

/**
 * Creates a Task in status {@code queued} for a {@link TaskWork} type; a runner picks it up. Blocking (JDBC):
 * call it off the event loop. Controllers answer 202 with {@link Submitted#record()} and
 * {@code Location: {base}/v2.0/tasks/{id}}.
 */
public interface TaskSubmitter {

    record Submitted(TaskId taskId, Map<String, Object> record, Long eventPosition) {
    }

    Submitted submit(TaskId taskId, String type, ProjectId projectId, Map<String, Object> parameters, Actor actor);
}
