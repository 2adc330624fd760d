package ai.convo.command.task;

/** Thrown out of a {@link TaskWork} when it stopped because a cancel was requested. */
public class TaskCancelledException extends RuntimeException {
    public TaskCancelledException() {
        super("The task was cancelled.");
    }
}
