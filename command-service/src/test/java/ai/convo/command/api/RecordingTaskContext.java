package ai.convo.command.api;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A TaskContext for running task work directly (as the runner would) and watching it: records the steps, and
 * reports a cancel once {@link #cancelAfterChecks} cancel checks (stepDone or cancelRequested) have passed.
 */
class RecordingTaskContext implements TaskContext {

    private final TaskId taskId;
    private final ProjectId projectId;
    private final Map<String, Object> parameters;
    private final Actor actor;
    final List<Integer> steps = new ArrayList<>();
    int totalSteps;
    int checks;
    int cancelAfterChecks = Integer.MAX_VALUE;

    RecordingTaskContext(String projectId, Map<String, Object> parameters, Actor actor) {
        this(projectId, parameters, actor, TaskId.generate().value());
    }

    RecordingTaskContext(String projectId, Map<String, Object> parameters, Actor actor, String taskId) {
        this.taskId = TaskId.of(taskId);
        this.projectId = ProjectId.of(projectId);
        this.parameters = parameters;
        this.actor = actor;
    }

    RecordingTaskContext cancelAfter(int checks) {
        this.cancelAfterChecks = checks;
        return this;
    }

    @Override
    public TaskId taskId() {
        return taskId;
    }

    @Override
    public ProjectId projectId() {
        return projectId;
    }

    @Override
    public Map<String, Object> parameters() {
        return parameters;
    }

    @Override
    public Actor actor() {
        return actor;
    }

    @Override
    public void totalSteps(int total) {
        totalSteps = total;
    }

    @Override
    public void stepDone(int current) {
        steps.add(current);
        if (cancelRequested()) {
            throw new TaskCancelledException();
        }
    }

    @Override
    public boolean cancelRequested() {
        return ++checks > cancelAfterChecks;
    }
}
