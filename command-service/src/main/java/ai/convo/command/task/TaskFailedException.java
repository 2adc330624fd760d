package ai.convo.command.task;

/** Thrown out of a {@link TaskWork} to end the task {@code error}; the message becomes {@code failReason}. */
public class TaskFailedException extends RuntimeException {
    public TaskFailedException(String failReason) {
        super(failReason);
    }

    public TaskFailedException(String failReason, Throwable cause) {
        super(failReason, cause);
    }
}
