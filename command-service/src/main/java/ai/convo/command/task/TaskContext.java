package ai.convo.command.task;

import ai.convo.contract.common.Actor;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import java.util.Map;

/** What a running {@link TaskWork} knows of its task and how it reports progress. */
public interface TaskContext {

    TaskId taskId();

    /** The project the task changes or reads; at most one task per project runs at a time. */
    ProjectId projectId();

    /** The task's {@code parameters} as created (shown by the API; never secrets). */
    Map<String, Object> parameters();

    /** Who created the task. */
    Actor actor();

    /** Sets {@code totalStep}. */
    void totalSteps(int total);

    /**
     * Records {@code currentStep} (committed at once, in its own transaction, so readers see real progress) and
     * keeps the runner's lease alive. Throws {@link TaskCancelledException} when a cancel was requested.
     */
    void stepDone(int current);

    /** Whether a cancel was requested; for work that wants to check between steps without reporting one. */
    boolean cancelRequested();
}
