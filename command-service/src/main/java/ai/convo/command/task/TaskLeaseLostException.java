package ai.convo.command.task;

/**
 * The runner no longer holds the task (its lease expired and another runner took over, or the runner stopped). The
 * work sees a {@link TaskCancelledException}: it must stop and leave nothing changed, exactly as on a cancel, but the
 * runner then reports nothing, since the task is no longer its own.
 */
class TaskLeaseLostException extends TaskCancelledException {
}
